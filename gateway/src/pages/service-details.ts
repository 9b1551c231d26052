import { Elysia, t } from "elysia";
import type { QueueReport, ServiceDetails } from "@svc/contracts";
import { ApiError, type SvcClient } from "@svc/client";
import { LOG_TAIL_LINES as TAIL_LINES, serviceActionPage, serviceDetailsPage, serviceErrorPage, serviceQueueCard, serviceStatusPanel, type ServiceAction } from "@svc/ui";
import { holdOpen } from "../guard/hold-open";
import { fingerprint, orchestratorDown } from "./services";

const htmlHeaders = { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" };
const IdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 64 }) });
const ActionParams = t.Object({ id: t.String({ minLength: 1, maxLength: 64 }), action: t.String({ maxLength: 32 }) });
const ACTIONS: readonly string[] = ["stop", "restart", "remove"];

/** How long the page waits for the last lines before it renders without them. */
const TAIL_WAIT_MS = 2000;

async function readAll(stream: ReadableStream<Uint8Array>, ms: number): Promise<string> {
  const timer = setTimeout(() => stream.cancel().catch(() => {}), ms);
  try {
    return await new Response(stream).text();
  } finally {
    clearTimeout(timer);
  }
}

/** Output of a service is text with the odd control character; keep newlines and tabs only. */
const printable = (text: string) => text.replace(/[\x00-\x08\x0b-\x1f\x7f]|\x1b\[[0-9;]*[A-Za-z]/g, "");

/** Passes `source` through until the browser goes away (then the upstream read is cancelled too). */
function untilClosed(source: ReadableStream<Uint8Array>, signal: AbortSignal): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const stop = () => reader.cancel().catch(() => {});
  signal.addEventListener("abort", stop, { once: true });
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          signal.removeEventListener("abort", stop);
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel: stop,
  });
}

/**
 * A service's page (every field, phases, events, endpoint and examples, logs), its status panel
 * that htmx polls every second, the live log stream, and stop / restart / remove, each behind a
 * confirmation page with a plain POST form.
 */
/** A service's output as plain text, or the API's error (in words) with its status. */
async function logsResponse(open: () => Promise<ReadableStream<Uint8Array>>, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const headers = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff", ...extraHeaders };
  try {
    return new Response(await open(), { headers });
  } catch (error) {
    const message = error instanceof ApiError ? error.message : orchestratorDown;
    return new Response(`${message}\n`, { status: error instanceof ApiError ? error.status : 503, headers });
  }
}

/** `queues`: the gateway's fair-share queues (the service's model's card), absent where the page is rendered without them. */
export function serviceDetailPages(client: SvcClient, session: boolean, queues?: (model: string) => QueueReport) {
  const page = (request: Request, body: string, status = 200) =>
    new Response(body, { status: request.headers.get("hx-request") ? 200 : status, headers: htmlHeaders });

  const failure = (request: Request, error: unknown) => {
    if (error instanceof ApiError) {
      const title = error.status === 404 ? "Service not found" : "Service unavailable";
      return page(request, serviceErrorPage({ title, message: error.message, session }), error.status);
    }
    return page(request, serviceErrorPage({ title: "Services unavailable", message: orchestratorDown.replace("this page tries again every second", "reload in a few seconds"), session }), 503);
  };

  const notFound = (request: Request, what: string) =>
    page(request, serviceErrorPage({ title: "Page not found", message: `A service has no page named ${what}: its actions are stop, restart and remove.`, session }), 404);

  const panelVersion = (service: ServiceDetails, origin: string) => fingerprint(serviceStatusPanel(service, "", origin).value);

  async function lastLines(id: string): Promise<{ text: string } | { unavailable: string }> {
    try {
      return { text: printable(await readAll(await client.services.logs(id, { tail: TAIL_LINES }), TAIL_WAIT_MS)) };
    } catch (error) {
      return { unavailable: error instanceof ApiError ? error.message : "The output could not be read just now; reload in a few seconds." };
    }
  }

  return new Elysia({ name: "gateway/pages/service-details" })
    .get(
      "/services/:id",
      async ({ request, params, query }) => {
        let service: ServiceDetails;
        try {
          service = await client.services.get(params.id);
        } catch (error) {
          return failure(request, error);
        }
        const logs = await lastLines(service.id);
        const notices = query.launched
          ? [`Launched ${service.name}. Its status follows below; the service answers once it is HEALTHY.`]
          : query.done
            ? [String(query.done) === "stop" ? `Stopped ${service.name}.` : `Restarted ${service.name}.`]
            : [];
        const origin = new URL(request.url).origin;
        const body = serviceDetailsPage({ service, origin, tokenRequired: session, logs, session, notices, version: panelVersion(service, origin), queues: queues?.(service.model) });
        return page(request, body);
      },
      { params: IdParams, query: t.Object({ launched: t.Optional(t.String({ maxLength: 8 })), done: t.Optional(t.String({ maxLength: 16 })) }, { additionalProperties: true }), detail: { hide: true } },
    )
    .get(
      "/services/:id/status",
      async ({ request, params, query }) => {
        try {
          const service = await client.services.get(params.id);
          const origin = new URL(request.url).origin;
          const version = panelVersion(service, origin);
          if (query.v === version) return new Response(null, { status: 204 });
          return new Response(serviceStatusPanel(service, version, origin).value, { headers: htmlHeaders });
        } catch (error) {
          // Keep polling (same element, same attributes) and say what is wrong.
          const message = error instanceof ApiError ? error.message : orchestratorDown;
          return new Response(
            `<section class="card" id="service-status" hx-get="/services/${encodeURIComponent(params.id)}/status" hx-trigger="every 1s" hx-swap="outerHTML"><p class="error" role="alert">${Bun.escapeHTML(message)}</p></section>`,
            { headers: htmlHeaders },
          );
        }
      },
      { params: IdParams, query: t.Object({ v: t.Optional(t.String({ maxLength: 64 })) }, { additionalProperties: true }), detail: { hide: true } },
    )
    .get(
      "/services/:id/queue",
      async ({ request, params }) => {
        try {
          const service = await client.services.get(params.id);
          if (!queues) return new Response(null, { status: 404 });
          return new Response(serviceQueueCard(queues(service.model), service.model, service.id).value, { headers: htmlHeaders });
        } catch (error) {
          return failure(request, error);
        }
      },
      { params: IdParams, detail: { hide: true } },
    )
    .get(
      "/services/:id/logs",
      ({ params }) => logsResponse(() => client.services.logs(params.id, { tail: 5000 })),
      { params: IdParams, detail: { hide: true } },
    )
    .get(
      "/services/:id/logs/stream",
      ({ request, params, server }) =>
        logsResponse(async () => untilClosed(await client.services.logs(params.id, { follow: true, tail: TAIL_LINES }), request.signal), holdOpen(request, server)),
      { params: IdParams, detail: { hide: true } },
    )
    .get(
      "/services/:id/:action",
      async ({ request, params }) => {
        if (!ACTIONS.includes(params.action)) return notFound(request, params.action);
        try {
          const service = await client.services.get(params.id);
          return page(request, serviceActionPage({ service, action: params.action as ServiceAction, session }));
        } catch (error) {
          return failure(request, error);
        }
      },
      { params: ActionParams, detail: { hide: true } },
    )
    .post(
      "/services/:id/:action",
      async ({ request, params }) => {
        if (!ACTIONS.includes(params.action)) return notFound(request, params.action);
        const action = params.action as ServiceAction;
        let service: ServiceDetails;
        try {
          service = await client.services.get(params.id);
        } catch (error) {
          return failure(request, error);
        }
        try {
          if (action === "stop") await client.services.stop(service.id);
          else if (action === "restart") await client.services.restart(service.id);
          else {
            await client.services.remove(service.id, { force: true });
            return new Response(null, { status: 303, headers: { location: `/services?status=all&removed=${encodeURIComponent(service.name)}` } });
          }
          return new Response(null, { status: 303, headers: { location: `/services/${service.id}?done=${action}` } });
        } catch (error) {
          if (!(error instanceof ApiError)) return failure(request, error);
          return page(request, serviceActionPage({ service, action, session, error: error.message }), error.status);
        }
      },
      { params: ActionParams, detail: { hide: true } },
    );
}
