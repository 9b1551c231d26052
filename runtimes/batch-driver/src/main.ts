import { parseDriverArgs, UsageError } from "./args";
import { runDriver } from "./driver";

/**
 * svc's batch driver: `bun main.ts --task T --input-dir IN --output-dir OUT [options] -- <runtime command>`.
 * Exit codes: 0 finished, 143 stopped (SIGTERM/SIGINT), 2 bad arguments, 1 the runtime failed.
 */
let options;
try {
  options = parseDriverArgs(process.argv.slice(2));
} catch (error) {
  console.error(`svc batch: ${(error as Error).message}`);
  process.exit(error instanceof UsageError || (error as Error).name === "TypeError" ? 2 : 1);
}
const controller = new AbortController();
for (const name of ["SIGTERM", "SIGINT"] as const) process.on(name, () => controller.abort());
try {
  const outcome = await runDriver(options, controller.signal);
  process.exit(outcome === "finished" ? 0 : 143);
} catch (error) {
  console.error(`svc batch: cannot go on: ${(error as Error).message}`);
  process.exit(1);
}
