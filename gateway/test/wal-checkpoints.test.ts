/** The gateway database's checkpoints on a worker thread (checkpointOffThread): the log is still copied back and reused, and a worker that fails hands them back. */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { openGatewayDb } from "../src/db/connection";
import { checkpointOffThread } from "../src/db/wal-checkpoints";

const dir = mkdtempSync(join(tmpdir(), "svc-checkpoints-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const autocheckpoint = (sqlite: Database) => (sqlite.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;

/** Usage rows in batches as the usage store commits them, for ~1.5 s; the size of the database's log after. */
async function commitUsage(sqlite: Database): Promise<number> {
  const insert = sqlite.prepare(`insert into usage (at, caller, endpoint, status, "end", latency_ms) values (?, 'bench', '/v1/chat/completions', 200, 'complete', 0.5)`);
  for (let batch = 0; batch < 150; batch++) {
    sqlite.transaction(() => {
      for (let i = 0; i < 40; i++) insert.run(new Date().toISOString());
    })();
    await Bun.sleep(10);
  }
  expect((sqlite.query("select count(*) as n from usage").get() as { n: number }).n).toBe(150 * 40);
  return statSync(`${sqlite.filename}-wal`).size;
}

test("the gateway's connection stops checkpointing; the worker's checkpoints keep its log from growing with every commit", async () => {
  mkdirSync(join(dir, "never"));
  const never = openGatewayDb(join(dir, "never")).$client;
  never.exec("PRAGMA wal_autocheckpoint = 0");
  const sqlite = openGatewayDb(dir).$client;
  const checkpoints = checkpointOffThread(sqlite, 20);
  try {
    expect(autocheckpoint(sqlite)).toBe(0);
    const [neverCopied, copied] = await Promise.all([commitUsage(never), commitUsage(sqlite)]);
    // Never checkpointed, a log holds every page every commit wrote; copied back, it starts over.
    expect(copied).toBeLessThan(neverCopied / 3);
  } finally {
    checkpoints.stop();
  }
  // Stopped, the connection checkpoints itself again.
  expect(autocheckpoint(sqlite)).toBe(1000);
  sqlite.close();
  never.close();
});

test("a worker that cannot checkpoint hands the checkpoints back to the connection", async () => {
  mkdirSync(join(dir, "gone"));
  const sqlite = openGatewayDb(join(dir, "gone")).$client;
  // The connection keeps its open file; the worker finds none to open.
  unlinkSync(sqlite.filename);
  const checkpoints = checkpointOffThread(sqlite, 20);
  try {
    expect(autocheckpoint(sqlite)).toBe(0);
    const deadline = Date.now() + 10_000;
    while (autocheckpoint(sqlite) !== 1000 && Date.now() < deadline) await Bun.sleep(20);
    expect(autocheckpoint(sqlite)).toBe(1000);
  } finally {
    checkpoints.stop();
    sqlite.close();
  }
});
