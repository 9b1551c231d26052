import { groupReplicas, isLive, SERVICE_STATUSES, TASKS, type DeploymentRecord, type ServiceRecord, type ServiceStatus } from "@svc/contracts";
import { html, type SafeHtml } from "../html";
import { layout } from "../layout";
import { DEPLOYMENT_STYLE, deploymentRow } from "./deployments";

export const SERVICES_PATH = "/services";
export const serviceUrl = (id: string) => `${SERVICES_PATH}/${encodeURIComponent(id)}`;

/** Filters of the services page, as the query string gives them. */
export interface ServiceFilters {
  /** "" (live services), "all", or one status. */
  status?: string;
  task?: string;
  profile?: string;
  /** Matches the id prefix, the name or the model. */
  q?: string;
  /** Where the page starts (the API's cursor); none: the newest. */
  cursor?: string;
}

/** Shared look of the service pages: status colours, the live table, the details grid. */
export const SERVICE_STYLE = html`<style>
  .badge.HEALTHY { background: #dcf3e5; color: var(--ok); }
  .badge.SUBMITTED, .badge.PENDING, .badge.STARTING, .badge.STOPPING { background: #fff1d6; color: var(--warn); }
  .badge.UNHEALTHY, .badge.FAILED, .badge.TIMEOUT { background: #fde4e1; color: var(--bad); }
  .badge.STOPPED { background: #e8ebf1; color: var(--muted); }
  .services tr.ended td { opacity: .6; }
  .toolbar { display: flex; gap: 1rem; align-items: end; flex-wrap: wrap; }
  .toolbar label { margin: 0 0 .3rem; }
  .toolbar select, .toolbar input { width: auto; min-width: 10rem; padding: .45rem .5rem; border: 1px solid var(--line); border-radius: 6px; font: inherit; }
  .toolbar button { margin-top: 0; }
  .services td { white-space: nowrap; }
  .table-wrap { overflow-x: auto; }
  .services th, .services td { padding: .45rem .5rem; }
  .services .reason { display: block; color: var(--muted); font-size: .8rem; white-space: normal; max-width: 22rem; }
  .actions { display: flex; gap: 1rem; align-items: baseline; flex-wrap: wrap; }
  .button { display: inline-block; padding: .5rem 1rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; text-decoration: none; }
  .button.secondary, button.secondary-button { background: #fff; color: var(--accent); }
  .button.danger, button.danger { background: var(--bad); border-color: var(--bad); color: #fff; }
  .hint { color: var(--muted); font-size: .9rem; margin: .2rem 0 0; }
  .notice { background: #dcf3e5; color: var(--ok); padding: .5rem .75rem; border-radius: 6px; }
  .warning { background: #fff1d6; color: var(--warn); padding: .5rem .75rem; border-radius: 6px; }
  pre.block { background: #141a26; color: #e6e9ef; padding: .75rem 1rem; border-radius: 6px; overflow: auto; max-height: 28rem; font-size: .85rem; white-space: pre-wrap; overflow-wrap: anywhere; margin: .5rem 0; }
  a:focus-visible, button:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible { outline: 3px solid #8fb0f5; outline-offset: 2px; }
</style>`;

/** Relative age, coarse on purpose: the live table only changes when something really did. */
export function age(iso: string | null, now = Date.now()): string {
  if (!iso) return "—";
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

export const statusBadge = (status: ServiceStatus) => html`<span class="badge ${status}">${status}</span>`;

function select(name: string, id: string, options: Array<[string, string]>, selected: string | undefined): SafeHtml {
  return html`<select id="${id}" name="${name}">
    ${options.map(([value, label]) => html`<option value="${value}" ${value === (selected ?? "") ? html`selected` : ""}>${label}</option>`)}
  </select>`;
}

function filterQuery(filters: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  return query.toString();
}

function emptyState(filters: ServiceFilters, total: number): SafeHtml {
  if (total > 0 || filters.q || filters.task || filters.profile || (filters.status && filters.status !== "all")) {
    return html`<p>No services match these filters. <a href="${SERVICES_PATH}?status=all">Show every service</a>.</p>`;
  }
  return html`<p>No services yet. <a href="/services/new">Launch one</a> from a registered model
    (or run <code>svc run text-generation &lt;owner/name&gt;</code>). No models? Add or refresh them on the <a href="/models">Models</a> page.</p>`;
}

/**
 * The table of §2.4, wrapped in the element htmx polls every second. `version` identifies the
 * rows as rendered: the poll sends it back and gets 204 (nothing to swap) while it is unchanged,
 * so focus and scroll stay put.
 */
/** How many services one page of the list shows (as `svc ls` and the API do by default). */
export const SERVICES_PAGE_SIZE = 100;

/** Links to the next page of older services, and back to the newest. */
function pager(filters: ServiceFilters, nextCursor: string | undefined): SafeHtml {
  if (!nextCursor && !filters.cursor) return html``;
  const rest = { ...filters, cursor: undefined };
  return html`<nav class="actions" aria-label="Pages of services">
    ${filters.cursor ? html`<a href="${SERVICES_PATH}?${filterQuery(rest)}">← Newest</a>` : ""}
    ${nextCursor ? html`<a href="${SERVICES_PATH}?${filterQuery({ ...rest, cursor: nextCursor })}" rel="next">Older services →</a>` : ""}
    <span class="hint">Pages of ${SERVICES_PAGE_SIZE}, newest first; the filters other than status apply within the page.</span>
  </nav>`;
}

function serviceRow(s: ServiceRecord, replica: boolean): SafeHtml {
  const classes = [replica ? "replica" : "", isLive(s.status) ? "" : "ended"].filter(Boolean).join(" ");
  return html`<tr data-service-id="${s.id}" ${classes ? html`class="${classes}"` : ""}>
    <td><a href="${serviceUrl(s.id)}" title="${s.id}"><code>${s.id.slice(0, 13)}</code></a></td>
    <td>${s.image}</td>
    <td class="model">${s.model}${s.adapters?.length ? html` <small title="${s.adapters.join(", ")}">+${s.adapters.length} LoRA adapter${s.adapters.length === 1 ? "" : "s"}</small>` : ""}</td>
    <td><time datetime="${s.createdAt}" title="${s.createdAt}">${age(s.createdAt)}</time></td>
    <td><time datetime="${s.updatedAt}" title="${s.updatedAt}">${age(s.updatedAt)}</time></td>
    <td class="status">${statusBadge(s.status)}${s.reason && s.status !== "HEALTHY" ? html`<span class="reason">${s.reason.split("\n")[0]}</span>` : ""}</td>
    <td>${s.port ?? "None"}</td>
    <td>${s.name}</td>
    <td>${s.profile}</td>
  </tr>`;
}

/** The rows: a service on its own, or a deployment's row with its replicas under it (where its first replica stands). */
function rows(services: ServiceRecord[], deployments: DeploymentRecord[]): SafeHtml[] {
  const byId = new Map(deployments.map((d) => [d.id, d]));
  return groupReplicas(services).flatMap((entry) => {
    if ("service" in entry) return [serviceRow(entry.service, false)];
    const deployment = byId.get(entry.deployment);
    return [...(deployment ? [deploymentRow(deployment)] : []), ...entry.replicas.map((r) => serviceRow(r, true))];
  });
}

export function servicesTable(
  services: ServiceRecord[],
  filters: ServiceFilters,
  options: { total: number; version: string; error?: string; nextCursor?: string; deployments?: DeploymentRecord[] },
): SafeHtml {
  const poll = `${SERVICES_PATH}/table?${filterQuery({ ...filters, v: options.version })}`;
  return html`<div id="services-table" hx-get="${poll}" hx-trigger="every 1s" hx-swap="outerHTML" aria-live="polite">
    ${options.error
      ? html`<p class="error" role="alert">${options.error}</p>`
      : services.length === 0
        ? emptyState(filters, options.total)
        : html`<div class="table-wrap"><table class="services">
            <thead><tr>
              <th scope="col">Service ID</th><th scope="col">Image</th><th scope="col">Model</th><th scope="col">Created</th>
              <th scope="col">Updated</th><th scope="col">Status</th><th scope="col">Port</th><th scope="col">Name</th><th scope="col">Profile</th>
            </tr></thead>
            <tbody>
              ${rows(services, options.deployments ?? [])}
            </tbody>
          </table></div>
`}
    ${options.error ? "" : pager(filters, options.nextCursor)}
  </div>`;
}

export function servicesPage(options: {
  services: ServiceRecord[];
  /** The deployments the services include replicas of. */
  deployments?: DeploymentRecord[];
  filters: ServiceFilters;
  profiles: string[];
  total: number;
  version: string;
  nextCursor?: string;
  session: boolean;
  notices?: string[];
  error?: string;
}): string {
  const { filters } = options;
  const statusOptions: Array<[string, string]> = [["", "live, and ended in the last 24 h"], ["all", "all, ever"], ...SERVICE_STATUSES.map((s): [string, string] => [s, s])];
  return layout(
    { title: "Services", current: SERVICES_PATH, session: options.session },
    html`${SERVICE_STYLE}${DEPLOYMENT_STYLE}<div class="actions"><h1>Services</h1><a class="button" href="/services/new">Launch a service</a></div>
      ${(options.notices ?? []).map((n) => html`<p class="notice" role="status">${n}</p>`)}
      <section class="card">
        <form method="get" action="${SERVICES_PATH}" class="toolbar" role="search">
          <div><label for="filter-status">Status</label>${select("status", "filter-status", statusOptions, filters.status)}</div>
          <div><label for="filter-task">Image</label>${select("task", "filter-task", [["", "all images"], ...TASKS.map((t): [string, string] => [t, t.replace("-", "_")])], filters.task)}</div>
          <div><label for="filter-profile">Profile</label>${select("profile", "filter-profile", [["", "all profiles"], ...options.profiles.map((p): [string, string] => [p, p])], filters.profile)}</div>
          <div><label for="filter-q">ID, name or model</label><input id="filter-q" name="q" value="${filters.q ?? ""}" placeholder="e.g. 3f2a or svc-123" autocomplete="off" spellcheck="false" /></div>
          <button type="submit">Filter</button>
        </form>
        <p class="hint">Statuses update by themselves (every second). Ended services (stopped, failed, timed out) come after the live ones, dimmed. A deployment's replicas are listed under it.</p>
        ${servicesTable(options.services, filters, { total: options.total, version: options.version, error: options.error, nextCursor: options.nextCursor, deployments: options.deployments })}
      </section>`,
  );
}

/** A page for a service that cannot be shown (unknown id, orchestrator down). */
export function serviceErrorPage(options: { title: string; message: string; session: boolean }): string {
  return layout(
    { title: options.title, current: SERVICES_PATH, session: options.session },
    html`<h1>${options.title}</h1><section class="card"><p class="error" role="alert">${options.message}</p>
      <p><a href="${SERVICES_PATH}?status=all">Back to the services</a></p></section>`,
  );
}
