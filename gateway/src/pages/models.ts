import { Elysia, t } from "elysia";
import { toTask, type DownloadTask, type Model, type RefreshReport } from "@svc/contracts";
import { ApiError, type SvcClient } from "@svc/client";
import { downloadProblem, downloadProgress, modelsPage, type AddFormValues, type ModelFilters } from "@svc/ui";

const htmlHeaders = { "content-type": "text/html; charset=utf-8" };

const Filters = t.Object(
  {
    profile: t.Optional(t.String({ maxLength: 63 })),
    image: t.Optional(t.String({ maxLength: 64 })),
    download: t.Optional(t.String({ maxLength: 64 })),
  },
  { additionalProperties: true },
);
const AddForm = t.Object(
  {
    repo: t.Optional(t.String({ maxLength: 256 })),
    revision: t.Optional(t.String({ maxLength: 256 })),
    profile: t.Optional(t.String({ maxLength: 63 })),
  },
  { additionalProperties: true },
);

const messageOf = (error: unknown, service = "model-svc") =>
  error instanceof ApiError ? error.message : `${service} is not answering (it may be restarting): reload in a few seconds. Logs: $SVC_HOME_DIR/logs/${service}.log`;

function cleanFilters(raw: { profile?: string; image?: string }): ModelFilters {
  const profile = raw.profile?.trim() || undefined;
  const image = toTask(raw.image);
  return { profile, image };
}

/**
 * The models page: the registry with filters, a refresh button, and the add form whose progress
 * bar follows the download task. Plain forms that work without JavaScript; htmx enhances them
 * and polls the progress fragment. Everything goes through the REST API (the typed client).
 */
export function modelPages(client: SvcClient, session: boolean) {
  const page = (request: Request, body: string, status = 200) =>
    new Response(body, { status: request.headers.get("hx-request") ? 200 : status, headers: htmlHeaders });

  async function render(
    request: Request,
    filters: ModelFilters,
    extra: { report?: RefreshReport; refreshError?: string; download?: DownloadTask; addError?: string; addValues?: AddFormValues; status?: number } = {},
  ) {
    const [models, profiles, running] = await Promise.all([
      client.models.list({ profile: filters.profile, image: toTask(filters.image) }).then(
        (list): { list: Model[]; error?: string } => ({ list }),
        (error) => ({ list: [], error: messageOf(error) }),
      ),
      client.profiles.list().then(
        (list) => list.map((p) => p.name),
        () => [] as string[],
      ),
      client.models.downloads().then(
        (tasks) => tasks.filter((task) => task.state === "running"),
        () => [] as DownloadTask[],
      ),
    ]);
    return page(
      request,
      modelsPage({ models: models.list, error: models.error, profiles, filters, session, running, ...extra }),
      extra.status ?? (models.error ? 503 : 200),
    );
  }

  return new Elysia({ name: "gateway/pages/models" })
    .get(
      "/models",
      async ({ request, query }) => {
        const filters = cleanFilters(query);
        let download: DownloadTask | undefined;
        if (query.download) download = await client.models.download(query.download).catch(() => undefined);
        return render(request, filters, { download });
      },
      { query: Filters, detail: { hide: true } },
    )
    .post(
      "/models/refresh",
      async ({ request, body }) => {
        const filters = cleanFilters(body ?? {});
        try {
          const report = await client.models.refresh(filters.profile);
          return render(request, filters, { report });
        } catch (error) {
          return render(request, filters, { refreshError: messageOf(error), status: error instanceof ApiError ? error.status : 503 });
        }
      },
      { body: t.Optional(Filters), detail: { hide: true } },
    )
    .post(
      "/models/downloads",
      async ({ request, body }) => {
        const form = body ?? {};
        const values: AddFormValues = { repo: form.repo?.trim() ?? "", revision: form.revision?.trim() ?? "", profile: form.profile?.trim() ?? "" };
        try {
          const task = await client.models.startDownload({ repo: values.repo ?? "", revision: values.revision || undefined, profile: values.profile || undefined });
          return new Response(null, { status: 303, headers: { location: `/models?download=${encodeURIComponent(task.id)}` } });
        } catch (error) {
          return render(request, {}, { addError: messageOf(error), addValues: values, status: error instanceof ApiError ? error.status : 503 });
        }
      },
      { body: t.Optional(AddForm), detail: { hide: true } },
    )
    .get(
      "/models/downloads/:id/progress",
      async ({ request, params }) => {
        try {
          return page(request, downloadProgress(await client.models.download(params.id)).value);
        } catch (error) {
          return page(request, downloadProblem(messageOf(error)).value, error instanceof ApiError ? error.status : 503);
        }
      },
      { params: t.Object({ id: t.String({ maxLength: 64 }) }), detail: { hide: true } },
    );
}

