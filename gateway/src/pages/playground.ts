import { Elysia, t } from "elysia";
import { isLive, type ServiceRecord } from "@svc/contracts";
import { ApiError, type SvcClient } from "@svc/client";
import { playgroundPage, type PlaygroundResult, type PlaygroundValues } from "@svc/ui";
import type { ServiceProxy } from "../proxy/service";
import { orchestratorDown } from "./services";

const htmlHeaders = { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" };
const IdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 64 }) });
const text = (maxLength: number) => t.Optional(t.String({ maxLength }));
const ChatForm = t.Object({ message: text(100_000), system: text(100_000), maxTokens: text(16), temperature: text(16), apiKey: text(4096) }, { additionalProperties: true });
const TranscribeForm = t.Object({ audioPath: text(4096), apiKey: text(4096) }, { additionalProperties: true });

/** The message of a service's error answer (OpenAI style or svc's JSON), else its status. */
async function problem(response: Response): Promise<string> {
  const body = await response.text();
  try {
    const parsed = JSON.parse(body) as { message?: string; error?: string | { message?: string } };
    const message = parsed.message ?? (typeof parsed.error === "object" ? parsed.error?.message : parsed.error);
    if (message) return `The service answered ${response.status}: ${message}`;
  } catch {
    // not JSON
  }
  return `The service answered ${response.status}${body ? `: ${body.slice(0, 500)}` : "."}`;
}

/**
 * The playground: chat with a text-generation service, transcribe with a speech service. With
 * JavaScript the page streams straight from /proxy/<id>/… (svc.js); these POST routes are the
 * plain-form fallback, and they go through the same ServiceProxy as any client of /proxy/.
 */
export function playgroundPages(client: SvcClient, session: boolean, proxy: ServiceProxy) {
  const page = (request: Request, body: string, status = 200) =>
    new Response(body, { status: request.headers.get("hx-request") ? 200 : status, headers: htmlHeaders });

  async function render(request: Request, ref: string | undefined, extra: { values?: PlaygroundValues; result?: PlaygroundResult; error?: string; status?: number } = {}) {
    let services: ServiceRecord[] = [];
    let selected: ServiceRecord | undefined;
    let error = extra.error;
    try {
      services = (await client.services.list()).filter((s) => isLive(s.status));
      if (ref) selected = services.find((s) => s.id === ref) ?? (await client.services.get(ref));
      else selected = services.find((s) => s.status === "HEALTHY");
    } catch (caught) {
      error ??= caught instanceof ApiError ? caught.message : orchestratorDown.replace("this page tries again every second", "reload in a few seconds");
    }
    return page(request, playgroundPage({ services, selected, session, error, values: extra.values, result: extra.result }), extra.status ?? (error ? 404 : 200));
  }

  const call = (id: string, path: string, apiKey: string | undefined, body: unknown) =>
    proxy.handle(
      new Request(`http://svc.internal/proxy/${encodeURIComponent(id)}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify(body),
      }),
    );

  return new Elysia({ name: "gateway/pages/playground" })
    .get("/playground", ({ request, query }) => render(request, query.service || undefined), {
      query: t.Object({ service: text(64) }, { additionalProperties: true }),
      detail: { hide: true },
    })
    .post(
      "/playground/:id/chat",
      async ({ request, params, body }) => {
        const form = body ?? {};
        const values: PlaygroundValues = { message: form.message ?? "", system: form.system ?? "", maxTokens: form.maxTokens ?? "", temperature: form.temperature ?? "" };
        const message = values.message!.trim();
        if (!message) return render(request, params.id, { values, error: "Write a message first.", status: 400 });
        const maxTokens = Number.parseInt(values.maxTokens ?? "", 10);
        const temperature = Number.parseFloat(values.temperature ?? "");
        const response = await call(params.id, "/v1/chat/completions", form.apiKey?.trim(), {
          messages: [...(values.system?.trim() ? [{ role: "system", content: values.system.trim() }] : []), { role: "user", content: message }],
          ...(Number.isInteger(maxTokens) && maxTokens > 0 ? { max_completion_tokens: maxTokens } : {}),
          ...(Number.isFinite(temperature) ? { temperature } : {}),
        });
        if (!response.ok) return render(request, params.id, { values, error: await problem(response), status: response.status });
        const answer = (await response.json()) as { choices?: Array<{ message?: { content?: string } }> };
        return render(request, params.id, { values: { ...values, message: "" }, result: { kind: "chat", prompt: message, answer: answer.choices?.[0]?.message?.content ?? "" } });
      },
      { params: IdParams, body: t.Optional(ChatForm), detail: { hide: true } },
    )
    .post(
      "/playground/:id/transcribe",
      async ({ request, params, body }) => {
        const form = body ?? {};
        const audioPath = form.audioPath?.trim() ?? "";
        const values: PlaygroundValues = { audioPath };
        if (!audioPath) return render(request, params.id, { values, error: "Give the audio file's path in the service's input folder.", status: 400 });
        const response = await call(params.id, "/transcribe", form.apiKey?.trim(), { audio_path: audioPath, response_format: "text" });
        if (!response.ok) return render(request, params.id, { values, error: await problem(response), status: response.status });
        const result = (await response.json()) as { text?: string };
        return render(request, params.id, { values, result: { kind: "transcript", text: result.text ?? "", audioPath } });
      },
      { params: IdParams, body: t.Optional(TranscribeForm), detail: { hide: true } },
    );
}
