import { Elysia, t } from "elysia";
import { BATCH_TASKS, type BatchRecord, type BatchRunRequest, type BatchTask } from "@svc/contracts";
import { ApiError, type SvcClient } from "@svc/client";
import { batchDetailsPage, batchesPage, batchesTable, serviceErrorPage, type BatchFormValues } from "@svc/ui";
import { fingerprint } from "./services";

const htmlHeaders = { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" };
const text = (maxLength: number) => t.Optional(t.String({ maxLength }));
const ListQuery = t.Object({ all: text(8), v: text(64), removed: text(256) }, { additionalProperties: true });
const BatchForm = t.Object(
  {
    task: text(32),
    model: text(256),
    profile: text(256),
    name: text(256),
    inputDir: text(4096),
    outputDir: text(4096),
    input: text(4096),
    output: text(4096),
    params: text(100_000),
    inputExt: text(512),
    concurrency: text(16),
    idleTimeout: text(16),
    time: text(32),
    retryFailed: text(8),
  },
  { additionalProperties: true },
);
const Ref = t.Object({ id: t.String({ minLength: 1, maxLength: 64 }) });

const orchestratorDown = "orchestrator-svc is not answering (it may be restarting): this page tries again every 2 seconds.";

async function load(client: SvcClient, all: boolean): Promise<{ batches: BatchRecord[]; error?: string }> {
  try {
    return { batches: await client.batches.list({ all }) };
  } catch (error) {
    return { batches: [], error: error instanceof ApiError ? error.message : orchestratorDown };
  }
}

const version = (loaded: Awaited<ReturnType<typeof load>>, all: boolean) => fingerprint(batchesTable(loaded.batches, { version: "", all, error: loaded.error }).value);

/** The form's text → a batch request; blank fields are left out so the API's defaults apply. */
export function batchRequest(values: BatchFormValues): { request?: BatchRunRequest; error?: { message: string; field?: string } } {
  const clean = (key: keyof BatchFormValues) => values[key]?.trim() || undefined;
  const task = (BATCH_TASKS as readonly string[]).includes(values.task ?? "") ? (values.task as BatchTask) : "transcribe";
  const model = clean("model");
  if (!model) return { error: { field: "model", message: "Choose a model: only registered models can run (see the Models page)." } };
  const integer = (key: "concurrency" | "idleTimeout", label: string): number | undefined | { error: string } => {
    const raw = clean(key);
    if (raw === undefined) return undefined;
    return /^\d+$/.test(raw) ? Number(raw) : { error: `${label} "${raw}" is not a whole number: write digits only, or leave it empty.` };
  };
  const request: BatchRunRequest = { task, model };
  for (const [key, label] of [["concurrency", "Requests at once"], ["idleTimeout", "Idle timeout"]] as const) {
    const value = integer(key, label);
    if (typeof value === "object") return { error: { field: key, message: value.error } };
    if (value !== undefined) request[key] = value;
  }
  for (const key of ["profile", "name", "inputDir", "outputDir", "input", "output"] as const) if (clean(key)) request[key] = clean(key);
  if (clean("params")) {
    try {
      request.params = JSON.parse(clean("params")!);
    } catch {
      return { error: { field: "params", message: 'Params must be a JSON object, e.g. {"language":"en"}.' } };
    }
  }
  if (clean("inputExt")) request.inputExt = clean("inputExt")!.split(",").map((ext) => ext.trim()).filter(Boolean);
  if (clean("time")) request.job = { time: clean("time") };
  return { request };
}

const FIELD_OF: Array<[RegExp, string]> = [
  [/^--input-dir\b/, "inputDir"],
  [/^--output-dir\b/, "outputDir"],
  [/^--input\b/, "input"],
  [/^--output\b/, "output"],
  [/^--params\b/, "params"],
  [/^--time\b/, "time"],
  [/^--name\b/, "name"],
];

/**
 * The batch jobs page: the live table with a progress bar per job (htmx polls it every 2 s), the
 * launcher below it, and a details page per job with its failures, inputs and the stop / resume /
 * remove buttons. Plain form posts: it works without JavaScript too (the table just does not move).
 */
export function batchPages(client: SvcClient, session: boolean) {
  const listPage = async (values: BatchFormValues, all: boolean, extra: { formError?: { message: string; field?: string }; notices?: string[]; status?: number } = {}) => {
    const [loaded, models, profiles] = await Promise.all([
      load(client, all),
      client.models.list({ kind: "model" }).then((list) => [...new Set(list.map((m) => m.repo))].sort(), () => [] as string[]),
      client.profiles.list().then((list) => list.map((p) => p.name), () => [] as string[]),
    ]);
    const body = batchesPage({ ...loaded, all, version: version(loaded, all), session, values, models, profiles, formError: extra.formError, notices: extra.notices });
    return new Response(body, { status: extra.status ?? (loaded.error ? 503 : 200), headers: htmlHeaders });
  };
  const details = async (id: string, notices: string[] = []) => {
    try {
      return new Response(batchDetailsPage(await client.batches.get(id), { session, notices }), { headers: htmlHeaders });
    } catch (error) {
      const message = error instanceof ApiError ? error.message : orchestratorDown;
      return new Response(serviceErrorPage({ title: "Batch job not shown", message, session }), { status: error instanceof ApiError ? error.status : 503, headers: htmlHeaders });
    }
  };
  const act = async (id: string, action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      return details(id, [done]);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return details(id, [error.message]);
    }
  };
  return new Elysia({ name: "gateway/pages/batches" })
    .get("/batches", ({ query }) => listPage({}, Boolean(query.all), { notices: query.removed ? [`Removed the record of batch job ${query.removed}.`] : [] }), { query: ListQuery, detail: { hide: true } })
    .get(
      "/batches/table",
      async ({ query }) => {
        const all = Boolean(query.all);
        const loaded = await load(client, all);
        const current = version(loaded, all);
        if (query.v === current) return new Response(null, { status: 204 });
        return new Response(batchesTable(loaded.batches, { version: current, all, error: loaded.error }).value, { headers: htmlHeaders });
      },
      { query: ListQuery, detail: { hide: true } },
    )
    .post(
      "/batches",
      async ({ body }) => {
        const values = body as BatchFormValues;
        const { request, error } = batchRequest(values);
        if (error) return listPage(values, false, { formError: error, status: 400 });
        try {
          const result = await client.batches.run(request!);
          return new Response(null, { status: 303, headers: { location: `/batches/${result.batch!.id}` } });
        } catch (failure) {
          if (!(failure instanceof ApiError)) throw failure;
          const field = (failure.details as { field?: unknown } | undefined)?.field;
          const named = typeof field === "string" ? field : FIELD_OF.find(([pattern]) => pattern.test(failure.message))?.[1];
          return listPage(values, false, { formError: { message: failure.message, field: named }, status: failure.status });
        }
      },
      { body: BatchForm, detail: { hide: true } },
    )
    .get("/batches/:id", ({ params }) => details(params.id), { params: Ref, detail: { hide: true } })
    .post("/batches/:id/stop", ({ params }) => act(params.id, () => client.batches.stop(params.id), "Stop requested."), { params: Ref, detail: { hide: true } })
    .post(
      "/batches/:id/resume",
      ({ params, body }) => {
        const retryFailed = Boolean((body as { retryFailed?: string } | undefined)?.retryFailed);
        return act(params.id, () => client.batches.resume(params.id, { retryFailed }), retryFailed ? "Resumed; failed inputs are run again." : "Resumed.");
      },
      { params: Ref, body: t.Optional(t.Object({ retryFailed: text(8) }, { additionalProperties: true })), detail: { hide: true } },
    )
    .post(
      "/batches/:id/remove",
      async ({ params }) => {
        try {
          const removed = await client.batches.remove(params.id, { force: true });
          return new Response(null, { status: 303, headers: { location: `/batches?all=1&removed=${encodeURIComponent(removed.name)}` } });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          return details(params.id, [error.message]);
        }
      },
      { params: Ref, detail: { hide: true } },
    );
}
