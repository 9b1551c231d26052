import type { Database } from "bun:sqlite";
import type { CheckpointPlan } from "./checkpoint-worker";

/** How often the worker checkpoints: the log then holds about a second of commits (~2 MB at 2,000 /v1 requests/s). */
export const CHECKPOINT_EVERY_MS = 1000;
/** SQLite's own default: a commit that finds the log this many pages long checkpoints. */
const AUTOCHECKPOINT_PAGES = 1000;

/**
 * Moves the checkpoints of `sqlite` (a database in WAL mode) off the calling thread. SQLite runs them
 * in the connection that commits, once its log is 1,000 pages long, and a checkpoint syncs the log
 * and the database to disk: 20–60 ms on the development VM, over 100 ms under load. Usage rows are committed every 20 ms,
 * so at 2,000 /v1 requests/s the gateway's one JavaScript thread stopped for one every ~2 s, and
 * every request arriving meanwhile waited (the 99th percentile of `bun bench/run-all.ts rate`).
 * This connection no longer checkpoints; a worker thread with its own connection does, every
 * `everyMs`, without waiting for readers or the writer. Should the worker fail, this connection
 * checkpoints as before.
 */
export function checkpointOffThread(sqlite: Database, everyMs = CHECKPOINT_EVERY_MS): { stop(): void } {
  // It never keeps the gateway running (ref: false).
  const worker = new Worker(new URL("./checkpoint-worker.ts", import.meta.url).href, { ref: false });
  const onThisThread = () => sqlite.exec(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  const failed = (message: string) => {
    console.error(`[error] the database's checkpoints are made on the gateway's thread again: ${message}`);
    worker.terminate();
    onThisThread();
  };
  worker.onmessage = (event: MessageEvent<string>) => failed(event.data);
  worker.onerror = (event) => failed(event.message);
  sqlite.exec("PRAGMA wal_autocheckpoint = 0");
  worker.postMessage({ file: sqlite.filename, everyMs } satisfies CheckpointPlan);
  return {
    stop() {
      worker.terminate();
      try {
        onThisThread();
      } catch {
        // closed already: nothing left to checkpoint here
      }
    },
  };
}
