import { Elysia, t } from "elysia";
import { deploymentIdsOf, isServiceStatus, toTask, type DeploymentRecord, type ServiceRecord } from "@svc/contracts";
import { ApiError, type SvcClient } from "@svc/client";
import { SERVICES_PAGE_SIZE, servicesPage, servicesTable, type ServiceFilters } from "@svc/ui";

const htmlHeaders = { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" };

const Filters = t.Object(
  {
    status: t.Optional(t.String({ maxLength: 32 })),
    task: t.Optional(t.String({ maxLength: 64 })),
    profile: t.Optional(t.String({ maxLength: 256 })),
    q: t.Optional(t.String({ maxLength: 256 })),
    v: t.Optional(t.String({ maxLength: 64 })),
    removed: t.Optional(t.String({ maxLength: 256 })),
    kind: t.Optional(t.String({ maxLength: 16 })),
    cursor: t.Optional(t.String({ maxLength: 256 })),
  },
  { additionalProperties: true },
);

export const orchestratorDown =
  "orchestrator-svc is not answering (it may be restarting): this page tries again every second. Logs: $SVC_HOME_DIR/logs/orchestrator-svc.log";

/** A short, stable fingerprint of rendered markup: polls send it back and get 204 while it holds. */
export const fingerprint = (markup: string) => Bun.hash(markup).toString(36);

function cleanFilters(raw: { status?: string; task?: string; profile?: string; q?: string; cursor?: string }): ServiceFilters {
  const status = raw.status === "all" || isServiceStatus(raw.status) ? raw.status : undefined;
  const task = toTask(raw.task);
  return { status, task, profile: raw.profile?.trim() || undefined, q: raw.q?.trim() || undefined, cursor: raw.cursor?.trim() || undefined };
}

/** One page of the services of the filters: status and the page through the API, the rest (task, profile, text) here. */
async function load(
  client: SvcClient,
  filters: ServiceFilters,
): Promise<{ services: ServiceRecord[]; deployments?: DeploymentRecord[]; total: number; nextCursor?: string; error?: string; errorStatus?: number }> {
  try {
    const status = isServiceStatus(filters.status) ? filters.status : undefined;
    const { services: all, nextCursor } = await client.services.page({ status, all: filters.status === "all", limit: SERVICES_PAGE_SIZE, cursor: filters.cursor });
    const q = filters.q?.toLowerCase();
    const services = all.filter(
      (s) =>
        (!filters.task || s.task === filters.task) &&
        (!filters.profile || s.profile === filters.profile) &&
        (!q || s.id.startsWith(q) || s.name.toLowerCase().includes(q) || s.model.toLowerCase().includes(q)),
    );
    // The deployments of the replicas listed (asked for only when there is one), to group them under.
    const deployments = deploymentIdsOf(services).length ? await client.deployments.list({ all: true }) : [];
    return { services, deployments, total: all.length, ...(nextCursor ? { nextCursor } : {}) };
  } catch (error) {
    // A page link that no longer fits (a cursor from another list) is the caller's to fix; anything else means orchestrator-svc is away.
    if (error instanceof ApiError) return { services: [], total: 0, error: error.message, errorStatus: error.status < 500 ? 400 : 503 };
    return { services: [], total: 0, error: orchestratorDown, errorStatus: 503 };
  }
}

/** The rows as rendered (without their fingerprint), to tell whether a poll has anything new. */
function tableVersion(loaded: Awaited<ReturnType<typeof load>>, filters: ServiceFilters): string {
  return fingerprint(tableOf(loaded, filters, "").value);
}

function tableOf(loaded: Awaited<ReturnType<typeof load>>, filters: ServiceFilters, version: string) {
  return servicesTable(loaded.services, filters, { total: loaded.total, version, error: loaded.error, nextCursor: loaded.nextCursor, deployments: loaded.deployments });
}

/**
 * The services page: the §2.4 table with filters. htmx polls /services/table every second (the
 * orchestrator moves statuses within ~200 ms, so a change shows within about a second); without
 * JavaScript the page shows the table as it was when loaded.
 */
export function servicePages(client: SvcClient, session: boolean) {
  return new Elysia({ name: "gateway/pages/services" })
    .get(
      "/services",
      async ({ query }) => {
        const filters = cleanFilters(query);
        const [loaded, profiles] = await Promise.all([
          load(client, filters),
          client.profiles.list().then(
            (list) => list.map((p) => p.name),
            () => [] as string[],
          ),
        ]);
        const notices = query.removed ? [`Removed the record of ${query.kind === "deployment" ? "deployment" : "service"} ${query.removed}.`] : [];
        const body = servicesPage({ ...loaded, filters, profiles, session, notices, version: tableVersion(loaded, filters) });
        return new Response(body, { status: loaded.errorStatus ?? 200, headers: htmlHeaders });
      },
      { query: Filters, detail: { hide: true } },
    )
    .get(
      "/services/table",
      async ({ query }) => {
        const filters = cleanFilters(query);
        const loaded = await load(client, filters);
        const version = tableVersion(loaded, filters);
        if (query.v === version) return new Response(null, { status: 204 });
        return new Response(tableOf(loaded, filters, version).value, { headers: htmlHeaders });
      },
      { query: Filters, detail: { hide: true } },
    );
}
