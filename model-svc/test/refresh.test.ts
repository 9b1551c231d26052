import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { commitOf, files, repoDir, writeCachedSnapshot } from "@svc/testing";
import { localProfile, makeServices, tempDir } from "./helpers";

const base = tempDir("refresh-");
afterAll(() => rmSync(base, { recursive: true, force: true }));

test("refresh reconciles in one transaction: new snapshots appear, vanished ones go, nothing else changes", async () => {
  const a = localProfile("default", base);
  const b = localProfile("other", base);
  let clock = Date.parse("2026-01-01T00:00:00Z");
  const s = makeServices({ profiles: [a, b] });
  const now = () => new Date((clock += 1000));
  Object.assign(s.models, { now });

  const homeA = join(a.home_dir, "models");
  const cacheB = join(b.cache_dir, "models");
  writeCachedSnapshot(homeA, "acme/llm", commitOf("1"), files.causalLm(), ["main"]);
  writeCachedSnapshot(homeA, "acme/llm", commitOf("2"), files.causalLm());
  writeCachedSnapshot(cacheB, "openai/whisper-tiny", commitOf("w"), files.whisper());

  const first = await s.models.refresh();
  expect(first.profiles.map((p) => [p.profile, p.status, p.added, p.removed, p.sshRoundTrips])).toEqual([
    ["default", "ok", 2, 0, 0],
    ["other", "ok", 1, 0, 0],
  ]);
  expect(first.profiles[0].scannedDirs).toEqual([homeA, join(a.cache_dir, "models")]);
  const before = s.models.list();
  expect(before.map((m) => [m.repo, m.profile, m.image])).toEqual([
    ["acme/llm", "default", "text-generation"],
    ["acme/llm", "default", "text-generation"],
    ["openai/whisper-tiny", "other", "speech-recognition"],
  ]);

  // One snapshot vanishes, one appears, in profile "default" only.
  rmSync(join(repoDir(homeA, "acme/llm"), "snapshots", commitOf("2")), { recursive: true });
  writeCachedSnapshot(homeA, "acme/gguf", commitOf("g"), files.gguf());
  const second = await s.models.refresh("default");
  expect(second.profiles.map((p) => [p.profile, p.added, p.removed, p.unchanged])).toEqual([["default", 1, 1, 1]]);
  const after = s.models.list();
  // The untouched rows are exactly as they were (seenAt included); the other profile was not touched.
  expect(after.find((m) => m.revision === commitOf("1"))).toEqual(before.find((m) => m.revision === commitOf("1"))!);
  expect(after.find((m) => m.profile === "other")).toEqual(before.find((m) => m.profile === "other")!);
  expect(after.some((m) => m.revision === commitOf("2"))).toBe(false);
  expect(after.find((m) => m.repo === "acme/gguf")).toMatchObject({ image: "text-generation", profile: "default" });

  // Filters.
  expect(s.models.list({ image: "speech-recognition" }).map((m) => m.repo)).toEqual(["openai/whisper-tiny"]);
  expect(s.models.list({ profile: "default", repo: "acme/gguf" })).toHaveLength(1);

  // A profile that cannot be scanned keeps its rows.
  const failing = makeServices({ profiles: [a], dataDir: s.dataDir });
  Object.assign(failing.models, { scan: async () => { throw new Error("host down"); } });
  const report = await failing.models.refresh("default");
  expect(report.profiles[0]).toMatchObject({ status: "failed", error: "host down" });
  expect(failing.models.list({ profile: "default" })).toHaveLength(2);

  // A full refresh drops rows of profiles that no longer exist.
  const onlyA = makeServices({ profiles: [a], dataDir: s.dataDir });
  const full = await onlyA.models.refresh();
  expect(full.removedForMissingProfiles).toBe(1);
  expect(onlyA.models.list().map((m) => m.profile)).toEqual(["default", "default"]);
  for (const x of [s, failing, onlyA]) x.close();
});

test("the database file is migrated at open, in WAL mode, and survives a reopen", async () => {
  const a = localProfile("default", base);
  writeCachedSnapshot(join(a.cache_dir, "models"), "acme/keep", commitOf("k"), files.causalLm());
  const s = makeServices({ profiles: [a] });
  await s.models.refresh();
  expect(s.db.$client.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
  s.close();
  const again = makeServices({ profiles: [a], dataDir: s.dataDir });
  expect(again.models.list({ repo: "acme/keep" })).toHaveLength(1);
  again.close();
  s.cleanup();
});
