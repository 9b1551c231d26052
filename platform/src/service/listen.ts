import type { AnyElysia } from "elysia";
import { processAlive } from "../process/alive";
import { listenOnPort, reportListening } from "../net/listen-report";

/**
 * Listens, logs one line, and closes the server cleanly on SIGTERM (and SIGINT when run alone).
 * Under `svc start` (SVC_SUPERVISOR_PID set) Ctrl-C's SIGINT, which reaches the whole terminal
 * process group, is left to the supervisor, which stops its children in order; and the process
 * exits when the supervisor is gone, even if it was SIGKILLed, so no orphan keeps the ports.
 * Port 0 takes the kernel's choice; `anyIfTaken` takes it too when `port` is in use. Whoever started
 * the process learns the port it got (reportListening), which is also returned.
 */
export function listenUntilSignal(app: AnyElysia, name: string, hostname: string, port: number, anyIfTaken = false): number {
  const bound = listenOnPort((p) => {
    app.listen({ hostname, port: p });
    return app.server!.port!;
  }, port, anyIfTaken);
  console.log(`${name} listening on ${hostname}:${bound} (pid ${process.pid})`);
  reportListening(bound);
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
  return bound;
}
