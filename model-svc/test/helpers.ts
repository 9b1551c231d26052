import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LocalProfile } from "@svc/contracts";
import { openModelDb } from "../src/db/connection";
import { ModelService } from "../src/models/service";
import { DownloadService } from "../src/downloads/service";
import { staticProfileSource } from "../src/profiles/source";
import { HubClient } from "../src/hub/client";
import { DEFAULT_HUB_TIMEOUTS } from "../src/hub/endpoint";

export function tempDir(prefix = "model-svc-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function localProfile(name: string, base: string): LocalProfile {
  return { name, schema: "local", home_dir: join(base, name, "home"), cache_dir: join(base, name, "cache") };
}

/** model-svc's services on a temp database, with fixed profiles and (optionally) a hub at `hubUrl`. */
export function makeServices(options: {
  profiles: Parameters<typeof staticProfileSource>[0];
  hubUrl?: string;
  hubToken?: string;
  dataDir?: string;
  /** Hub timeouts in ms (defaults: those of svc). */
  connectTimeoutMs?: number;
  stallTimeoutMs?: number;
}) {
  const dataDir = options.dataDir ?? tempDir("model-svc-data-");
  const db = openModelDb(dataDir);
  const profiles = staticProfileSource(options.profiles);
  const models = new ModelService({ db, profiles });
  const downloads = new DownloadService({
    models,
    profiles,
    hub: () =>
      new HubClient({
        endpoint: options.hubUrl ?? "http://127.0.0.1:9",
        token: options.hubToken,
        connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_HUB_TIMEOUTS.connect * 1000,
        stallTimeoutMs: options.stallTimeoutMs ?? DEFAULT_HUB_TIMEOUTS.stall * 1000,
      }),
  });
  return { dataDir, db, models, downloads, close: () => db.$client.close(), cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}
