import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BatchStatus } from "@svc/contracts";
import { tempHome } from "./svc-app";

const DAY = 86_400_000;

/** orchestrator-svc's stores, loaded when a history is made (its index costs every test file ~240 ms). */
const orchestrator = () => require("@svc/orchestrator-svc") as typeof import("@svc/orchestrator-svc");

/**
 * A fresh svc home whose orchestrator-svc already holds `count` ended services (no containers behind
 * them): `old-000` the newest, ended `endedAgo(0)` ago, then older ones (`endedAgo(i)`), as a long
 * history looks to `svc ls --all` and the UI. Start an app on it with `startSvc({ home })`.
 */
export function homeWithEndedServices(count: number, endedAgo = (i: number) => 2 * DAY + i * 60_000): string {
  const home = tempHome("svc-history-");
  mkdirSync(join(home, "data", "orchestrator-svc"), { recursive: true });
  const store = new (orchestrator().ServiceStore)(join(home, "data", "orchestrator-svc", "orchestrator.db"));
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    const at = new Date(now - endedAgo(i)).toISOString();
    store.insert(
      {
        id: crypto.randomUUID(), name: `old-${String(i).padStart(3, "0")}`, task: "text-generation", model: "svc-tiny/tiny-llama-gguf", revision: "0".repeat(40), profile: "default",
        status: i % 100 === 99 ? "FAILED" : "STOPPED", reason: null, host: null, port: null, engine: "docker", runtime: "svc-text-generation:latest",
        handle: null, apiKey: null, spec: JSON.stringify({ job: {}, engineArgs: [], launch: {} }), createdBy: "test", createdAt: at, updatedAt: at,
      },
      null,
    );
  }
  return home;
}

/**
 * A fresh svc home whose orchestrator-svc already holds these ended batch jobs (nothing behind
 * them), each with its output folder and when it ended. Start an app on it with `startSvc({ home })`.
 */
export function homeWithEndedBatches(jobs: Array<{ name: string; status: BatchStatus; endedAgoMs: number; outputDir: string }>): string {
  const home = tempHome("svc-batch-history-");
  mkdirSync(join(home, "data", "orchestrator-svc"), { recursive: true });
  const store = new (orchestrator().BatchStore)(join(home, "data", "orchestrator-svc", "orchestrator.db"));
  const now = Date.now();
  for (const job of jobs) {
    const at = new Date(now - job.endedAgoMs).toISOString();
    const spec = { inputDir: "/data/in", outputDir: job.outputDir, params: {}, concurrency: 1, idleTimeout: 60, job: {}, launch: { image: "svc-text-generation:latest", args: [], modelDir: "/m" } };
    store.insert(
      {
        id: crypto.randomUUID(), name: job.name, task: "chat", model: "svc-tiny/tiny-llama-gguf", revision: "0".repeat(40), profile: "default", engine: "docker",
        status: job.status, reason: null, handle: null, allocations: 1, progress: null, spec: JSON.stringify(spec), createdBy: "test", createdAt: at, updatedAt: at,
      },
      null,
    );
  }
  return home;
}
