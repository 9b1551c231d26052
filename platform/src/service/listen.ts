import type { AnyElysia } from "elysia";
import { processAlive } from "../process/alive";

/**
 * Listens, logs one line, and closes the server cleanly on SIGTERM (and SIGINT when run alone).
 * Under `svc start` (SVC_SUPERVISOR_PID set) Ctrl-C's SIGINT, which reaches the whole terminal
 * process group, is left to the supervisor, which stops its children in order; and the process
 * exits when the supervisor is gone, even if it was SIGKILLed, so no orphan keeps the ports.
 */
export function listenUntilSignal(app: AnyElysia, name: string, hostname: string, port: number) {
  app.listen({ hostname, port });
  console.log(`${name} listening on ${hostname}:${port} (pid ${process.pid})`);
  const stop = () => void app.stop().finally(() => process.exit(0));
  const supervisor = Number(process.env.SVC_SUPERVISOR_PID);
  const supervised = Number.isInteger(supervisor) && supervisor > 0;
  process.on("SIGTERM", stop);
  process.on("SIGINT", supervised ? () => {} : stop);
  if (supervised) {
    setInterval(() => {
      if (!processAlive(supervisor)) {
        console.log(`${name}: supervisor (pid ${supervisor}) is gone; exiting`);
        stop();
      }
    }, 1000).unref();
  }
}
