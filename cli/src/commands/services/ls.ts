import type { CAC } from "cac";
import { deploymentIdsOf, isLive, isServiceStatus, SERVICE_STATUSES, type DeploymentRecord, type ServiceRecord, type ServiceStatus } from "@svc/contracts";
import type { SvcClient } from "@svc/client";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";
import { formatTable } from "../../output/table";
import { LS_HEADERS, lsRows } from "./ls-rows";

/** `--filter id=<prefix>,status=<status>` as in the spec. */
export function parseFilter(text: string | undefined): { id?: string; status?: ServiceStatus } {
  const filter: { id?: string; status?: ServiceStatus } = {};
  for (const part of (text ?? "").split(",").filter(Boolean)) {
    const [key, value] = part.split("=", 2).map((s) => s.trim());
    const status = value?.toUpperCase();
    if (key === "id" && value) filter.id = value.toLowerCase();
    else if (key === "status" && isServiceStatus(status)) filter.status = status;
    else if (key === "status") throw new UsageError(`--filter status=${value ?? ""}: use one of ${SERVICE_STATUSES.join(", ")}.`);
    else throw new UsageError(`--filter ${part}: use id=<id prefix> and/or status=<status>, separated by commas.`);
  }
  return filter;
}

export const DEFAULT_LS_LIMIT = 100;

function parseLimit(raw: unknown): number {
  if (raw === undefined) return DEFAULT_LS_LIMIT;
  const limit = /^\d+$/.test(String(raw)) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError(`--limit ${raw}: use a whole number from 1 to 1000.`);
  return limit;
}

/** Terminal escape for ended services (dimmed, as in the UI), only where stdout is a terminal. */
const dim = (text: string) => `\x1b[2m${text}\x1b[22m`;

/** The deployments the page's replicas belong to, asked for only when it has one (stopped ones too: a replica may be older than a day). */
async function deploymentsOf(client: SvcClient, services: ServiceRecord[]): Promise<DeploymentRecord[]> {
  return deploymentIdsOf(services).length ? client.deployments.list({ all: true }) : [];
}

export interface LsOptions {
  filter?: string;
  all?: boolean;
  json?: boolean;
  limit?: string | number;
  cursor?: string;
}

/** `svc ls`: one page of services as a table (or JSON). */
export async function listServices(ctx: CliContext, options: LsOptions): Promise<void> {
  const limit = parseLimit(options.limit);
  const filter = { ...parseFilter(options.filter), all: options.all, limit, cursor: options.cursor === undefined ? undefined : String(options.cursor) };
  const { services, nextCursor } = await ctx.client().services.page(filter);
  const deployments = options.json ? [] : await deploymentsOf(ctx.client(), services);
  // Ended services come after the live ones: dimmed on a terminal (node:fs, which tells, loads only then).
  const dimEnded = !options.json && services.some((s) => !isLive(s.status)) && !process.env.NO_COLOR && (await import("../../output/terminal")).isTerminal(1);
  ctx.emit(services, Boolean(options.json), () => {
    if (services.length === 0) {
      return options.all || options.filter || options.cursor
        ? "No services match."
        : "No live services, and none ended in the last 24 hours. Start one with 'svc run text-generation <model>'; 'svc ls --all' lists every one.";
    }
    const rows = lsRows(services, deployments);
    const table = formatTable(LS_HEADERS, rows.map((row) => row.cells));
    const lines = dimEnded ? table.split("\n").map((line, i) => (i > 0 && rows[i - 1].ended ? dim(line) : line)) : [table];
    const more = nextCursor
      ? [`More services follow: svc ls${options.all ? " --all" : ""}${options.filter ? ` --filter ${options.filter}` : ""} --limit ${limit} --cursor ${nextCursor}`]
      : [];
    return [...lines, ...more].join("\n");
  });
}

export function registerLs(cli: CAC, ctx: CliContext) {
  cli
    .command("ls", "List services: live ones, then those that ended in the last 24 h (--all: every one); a deployment's replicas under it")
    .option("--filter <filter>", "id=<id prefix>,status=<status>")
    .option("--all", "The whole history, a page at a time (see --limit)")
    .option("--limit <n>", `Services per page (default ${DEFAULT_LS_LIMIT})`)
    .option("--cursor <cursor>", "Start where the previous page ended (the command it printed says which)")
    .option("--json", "Print the services as JSON (a replica's `deployment` is its deployment's id; 'svc details ID --json' shows one)")
    .action((options: LsOptions) => listServices(ctx, options));
}
