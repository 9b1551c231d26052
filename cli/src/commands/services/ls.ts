import type { CAC } from "cac";
import { isServiceStatus, SERVICE_STATUSES, type ServiceStatus } from "@svc/contracts";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";
import { formatTable } from "../../output/table";
import { relativeAge } from "../../output/age";

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

export function registerLs(cli: CAC, ctx: CliContext) {
  cli
    .command("ls", "List services (live ones; --all adds stopped and failed)")
    .option("--filter <filter>", "id=<id prefix>,status=<status>")
    .option("--all", "Include stopped, failed and timed-out services")
    .option("--json", "Print JSON")
    .action(async (options: { filter?: string; all?: boolean; json?: boolean }) => {
      const services = await ctx.client().services.list({ ...parseFilter(options.filter), all: options.all });
      ctx.emit(services, Boolean(options.json), () =>
        services.length === 0
          ? options.all || options.filter
            ? "No services match."
            : "No live services. Start one with 'svc run text-generation <model>'; 'svc ls --all' also lists stopped ones."
          : formatTable(
              ["service id", "image", "model", "created", "updated", "status", "port", "name", "profile"],
              services.map((s) => [s.id.slice(0, 13), s.image, s.model, relativeAge(s.createdAt), relativeAge(s.updatedAt), s.status, s.port, s.name, s.profile]),
            ),
      );
    });
}
