import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { ApiError, ConfigError } from "@svc/platform";
import { bytes, commitFor, sha256, startFakeHub, startSilentHub, tinyRepo } from "@svc/testing";
import { hubSettings } from "../src/hub/endpoint";
import { localProfile, makeServices, tempDir } from "./helpers";

const SIZE = 2 * 1024 * 1024 + 5;
const base = tempDir();
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("hub timeouts", () => {
  test("a hub that accepts the connection but never answers: a 502 within the connect timeout, naming the hub", async () => {
    const silent = startSilentHub();
    const s = makeServices({ profiles: [localProfile("default", base)], hubUrl: silent.url, connectTimeoutMs: 300 });
    try {
      let error: unknown;
      await s.downloads.start({ repo: "acme/tiny-llm" }).catch((e) => (error = e));
      expect(error).toBeInstanceOf(ApiError);
      const apiError = error as ApiError;
      expect([apiError.status, apiError.code]).toEqual([502, "hub_unreachable"]);
      expect(apiError.message).toContain(`The hub at ${silent.url} stopped answering`);
      expect(apiError.message).toContain("within 0.3 s (SVC_HUB_CONNECT_TIMEOUT)");
      expect(silent.connections()).toBeGreaterThan(0);
      expect(s.downloads.list()).toEqual([]);
    } finally {
      s.close();
      silent.stop();
    }
  });

  test("a hub that stops sending mid-file: the task fails as stalled, keeps the bytes, and the next add resumes", async () => {
    const repo = tinyRepo("acme/stalls", "whisper", { extra: [{ path: "weights.bin", content: bytes(SIZE, 11), lfs: true }] });
    const hub = startFakeHub({ repos: [repo] });
    const profile = localProfile("stall", base);
    // A short stall timeout for the stalling run; the resume runs with svc's defaults.
    const s = makeServices({ profiles: [profile], hubUrl: hub.url, connectTimeoutMs: 5000, stallTimeoutMs: 1000 });
    const t = makeServices({ profiles: [profile], hubUrl: hub.url });
    try {
      hub.stallNext("weights.bin", 700 * 1024);
      const failed = await s.downloads.settled((await s.downloads.start({ repo: "acme/stalls", profile: "stall" })).id);
      expect(failed.state).toBe("failed");
      expect(failed.error?.error).toBe("hub_unreachable");
      expect(failed.error?.message).toContain(`The hub at ${hub.url} stopped answering while sending weights.bin of acme/stalls`);
      expect(failed.error?.message).toContain("no data for 1 s (SVC_HUB_STALL_TIMEOUT)");
      expect(failed.error?.message).toContain(`${700 * 1024} of ${SIZE} bytes of weights.bin are kept`);
      const blobs = join(profile.home_dir, "models", "models--acme--stalls", "blobs");
      const partial = readdirSync(blobs).find((name) => name.endsWith(".incomplete"))!;
      expect(statSync(join(blobs, partial)).size).toBe(700 * 1024);

      const resumed = await t.downloads.settled((await t.downloads.start({ repo: "acme/stalls", profile: "stall" })).id);
      expect(resumed.error).toBeUndefined();
      expect(resumed.state).toBe("completed");
      expect(resumed.bytesResumed).toBeGreaterThanOrEqual(700 * 1024);
      expect(hub.requests.filter((r) => r.path.startsWith("/cdn/") && r.range).at(-1)?.range).toBe(`bytes=${700 * 1024}-`);
      const snapshot = join(profile.home_dir, "models", "models--acme--stalls", "snapshots", commitFor("acme/stalls"));
      expect(sha256(readFileSync(join(snapshot, "weights.bin")))).toBe(sha256(bytes(SIZE, 11)));
      expect(existsSync(join(blobs, partial))).toBe(false);
    } finally {
      s.close();
      t.close();
      hub.stop();
    }
  });

  test("SVC_HUB_CONNECT_TIMEOUT and SVC_HUB_STALL_TIMEOUT: seconds, defaults 10 and 30, bad values named", () => {
    expect(hubSettings({})).toMatchObject({ connectTimeoutMs: 10_000, stallTimeoutMs: 30_000 });
    expect(hubSettings({ SVC_HUB_CONNECT_TIMEOUT: "2", SVC_HUB_STALL_TIMEOUT: "0.5" })).toMatchObject({ connectTimeoutMs: 2000, stallTimeoutMs: 500 });
    for (const bad of ["0", "-1", "ten", "1e3", "99999"]) {
      expect(() => hubSettings({ SVC_HUB_STALL_TIMEOUT: bad })).toThrow(ConfigError);
      expect(() => hubSettings({ SVC_HUB_STALL_TIMEOUT: bad })).toThrow(`SVC_HUB_STALL_TIMEOUT=${JSON.stringify(bad)} is not a timeout`);
    }
  });
});
