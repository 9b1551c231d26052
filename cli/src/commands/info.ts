import type { CAC } from "cac";
import { dockerNetworkWords } from "@svc/contracts";
import type { CliContext } from "../io";
import { formatTable } from "../output/table";

export function registerInfo(cli: CAC, ctx: CliContext) {
  cli
    .command("info", "Show the running application's version, settings and component health")
    .option("--json", "Print JSON")
    .action(async (options: { json?: boolean }) => {
      const client = ctx.client();
      const [info, health] = await Promise.all([client.info(), client.health()]);
      ctx.emit({ ...info, health }, Boolean(options.json), () =>
        [
          `svc ${info.version} at http://${info.host}:${info.port}`,
          `home folder: ${info.homeDir}`,
          `debug mode:  ${info.debug ? "on (no authentication)" : "off (auth token required)"}`,
          `docker:      ${dockerNetworkWords(info.dockerNetwork)}`,
          ...info.images.map((i) => `${`${i.task} (${i.engine}):`.padEnd(28)} ${i.image}${i.setBy ? ` (${i.setBy})` : ""}`),
          `status:      ${health.status}`,
          "",
          formatTable(
            ["component", "state", "latency"],
            health.services.map((s) => [s.name, s.state, s.latencyMs === null ? null : `${s.latencyMs.toFixed(1)} ms`]),
          ),
          "",
          health.engines.length === 0
            ? "engines:     unknown (orchestrator-svc does not answer)"
            : formatTable(
                ["engine", "profile", "target", "state", "detail"],
                health.engines.map((e) => [e.engine, e.profile ?? "(local profiles)", e.target, e.state, e.detail]),
              ),
        ].join("\n"),
      );
    });
}
