import type { CAC } from "cac";
import { loadImageChoices, loadSettings, parseUsageRetentionDays, type SettingsOverrides } from "@svc/platform/config";
import { startApp } from "@svc/supervisor";
import type { CliContext } from "../io";

interface StartOptions extends SettingsOverrides {
  yes?: boolean;
  stopServicesOnExit?: boolean;
}

/** Resolves on the first SIGINT or SIGTERM. */
function untilSignal(controller: AbortController): Promise<string> {
  return new Promise((resolve) => {
    const onSignal = (signal: string) => {
      controller.abort();
      resolve(signal);
    };
    process.once("SIGINT", () => onSignal("SIGINT"));
    process.once("SIGTERM", () => onSignal("SIGTERM"));
  });
}

export function registerStart(cli: CAC, ctx: CliContext) {
  cli
    .command("start", "Start the management application (REST API and web UI); Ctrl-C stops it, and inference services and batch jobs keep running unless --stop-services-on-exit")
    .option("--host <host>", "Host to serve on (SVC_HOST, default localhost)")
    .option("--port <port>", "Port to serve on (SVC_PORT, default 8000)")
    .option("--home-dir <dir>", "Where application data is kept (SVC_HOME_DIR, default ~/.svc)")
    .option("--debug <bool>", "Debug mode, no authentication: true/false (SVC_DEBUG, default true)")
    .option("--auth-token <token>", "Auth token when debug is off (SVC_AUTH_TOKEN; the variable keeps it out of `ps`)")
    .option("--allowed-hosts <names>", "Extra host names to answer to, comma-separated, e.g. a reverse proxy's (SVC_ALLOWED_HOSTS)")
    .option("--yes", "Start even with debug on (no authentication) on a --host other machines can reach")
    .option("--stop-services-on-exit", "On Ctrl-C or SIGTERM, stop every running inference service and batch job too (by default they keep running and the next svc start adopts them)")
    .action(async (options: StartOptions) => {
      const settings = loadSettings(ctx.env, {
        host: options.host,
        port: options.port,
        homeDir: options.homeDir,
        debug: options.debug,
        authToken: options.authToken,
        allowedHosts: options.allowedHosts,
      });
      // Read by the gateway; checked here so a bad value stops start-up instead of the gateway.
      parseUsageRetentionDays(ctx.env);
      // The image variables are read by the services it starts: a bad one stops start-up here, named.
      loadImageChoices(ctx.env);
      const controller = new AbortController();
      const signalled = untilSignal(controller);
      const app = await startApp(settings, { info: ctx.io.out, error: ctx.io.err }, controller.signal, {
        stopServicesOnExit: Boolean(options.stopServicesOnExit),
        openDebugConfirmed: Boolean(options.yes),
      });
      const signal = await signalled;
      ctx.io.out(`Received ${signal}; stopping svc…`);
      await app.shutdown();
      ctx.io.out("svc stopped.");
    });
}


