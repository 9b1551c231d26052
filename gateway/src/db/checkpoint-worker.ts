/// <reference lib="webworker" />
/**
 * SQLite's checkpoints of the gateway's database (copying its write-ahead log back into it) on a
 * thread of their own, through a connection of their own: see wal-checkpoints.ts. Started with one
 * message, the database file and how often; a failure is posted back as text.
 */
import { Database } from "bun:sqlite";

export interface CheckpointPlan {
  file: string;
  everyMs: number;
}

declare const self: Worker;

self.onmessage = (event: MessageEvent<CheckpointPlan>) => {
  const { file, everyMs } = event.data;
  let db: Database;
  try {
    db = new Database(file, { readwrite: true, create: false });
  } catch (error) {
    self.postMessage(`cannot open ${file}: ${(error as Error).message}`);
    return;
  }
  setInterval(() => {
    try {
      // PASSIVE: copies what no reader still needs and waits for no one; the gateway's commits go on meanwhile.
      db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
    } catch (error) {
      self.postMessage(`checkpoint of ${file} failed: ${(error as Error).message}`);
    }
  }, everyMs);
};
