import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, readdirSync, rmSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { bytes, commitFor, sha256, startFakeHub, tinyRepo, type FakeHub } from "@svc/testing";
import { ApiError } from "@svc/contracts";
import { localProfile, makeServices, tempDir } from "./helpers";

const LARGE = 3 * 1024 * 1024 + 17;
const base = tempDir();
const profile = localProfile("default", base);
const slurm = { name: "cluster", schema: "slurm" as const, host: "127.0.0.1", user: "svc", home: "/home/svc/.svc", cache: "/shared/cache" };
let hub: FakeHub;

const repos = [
  tinyRepo("acme/tiny-llm", "causal-lm", { extra: [{ path: "sub/dir/tokenizer.json", content: Buffer.from("{}"), lfs: false }] }),
  tinyRepo("acme/big-whisper", "whisper", { extra: [{ path: "weights/large.bin", content: bytes(LARGE, 7), lfs: true }] }),
  tinyRepo("acme/gated", "causal-lm", { gated: true }),
  tinyRepo("acme/secret", "causal-lm", { private: true }),
  tinyRepo("acme/bert", "unknown"),
  tinyRepo("acme/paged", "causal-lm", { extra: [1, 2, 3, 4, 5].map((i) => ({ path: `shard-${i}.txt`, content: Buffer.from(`s${i}`), lfs: false })) }),
];
// A second revision of tiny-llm on a branch.
repos[0].commits[commitFor("tiny-llm-v2")] = repos[0].commits[commitFor("acme/tiny-llm")].slice(0, 3);
repos[0].refs["v2"] = commitFor("tiny-llm-v2");

beforeAll(() => {
  hub = startFakeHub({ repos, grantedTokens: ["hf_granted"], treePageSize: 3 });
});
afterAll(() => {
  hub.stop();
  rmSync(base, { recursive: true, force: true });
});

const services = () => makeServices({ profiles: [profile, slurm], hubUrl: hub.url });

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

describe("svc model add against the fake hub", () => {
  test("downloads into the hub cache layout, verifies, and registers the snapshot", async () => {
    const s = services();
    const started = await s.downloads.start({ repo: "acme/tiny-llm" });
    expect(started.state).toBe("running");
    const task = await s.downloads.settled(started.id);
    expect(task.error).toBeUndefined();
    expect(task.state).toBe("completed");
    const commit = commitFor("acme/tiny-llm");
    expect(task.revision).toBe(commit);
    expect(task.bytesDone).toBe(task.bytesTotal);
    expect(task.filesDone).toBe(4);
    const repoDir = join(profile.home_dir, "models", "models--acme--tiny-llm");
    expect(readFileSync(join(repoDir, "refs", "main"), "utf8")).toBe(commit);
    const snapshot = join(repoDir, "snapshots", commit);
    expect(lstatSync(join(snapshot, "model.safetensors")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(snapshot, "model.safetensors"))).toBe(`../../blobs/${sha256(repos[0].commits[commit][2].content)}`);
    expect(readlinkSync(join(snapshot, "sub/dir/tokenizer.json"))).toStartWith("../../../../blobs/");
    expect(readFileSync(join(snapshot, "config.json"), "utf8")).toContain("LlamaForCausalLM");
    expect(readdirSync(join(repoDir, "blobs")).some((name) => name.endsWith(".incomplete"))).toBe(false);
    expect(readdirSync(repoDir).some((name) => name.startsWith(".svc-partial-"))).toBe(false);
    expect(task.model).toMatchObject({ repo: "acme/tiny-llm", revision: commit, profile: "default", image: "text-generation", modelDir: snapshot });
    expect(s.models.list({ profile: "default" }).map((m) => m.repo)).toEqual(["acme/tiny-llm"]);

    // A branch resolves to its commit and gets its ref; shared blobs are not fetched again.
    const sentBefore = hub.bytesSent.get("model.safetensors") ?? 0;
    const v2 = await s.downloads.settled((await s.downloads.start({ repo: "acme/tiny-llm", revision: "v2" })).id);
    expect(v2.state).toBe("completed");
    expect(readFileSync(join(repoDir, "refs", "v2"), "utf8")).toBe(commitFor("tiny-llm-v2"));
    expect(hub.bytesSent.get("model.safetensors") ?? 0).toBe(sentBefore);
    expect(s.models.list({ repo: "acme/tiny-llm" }).map((m) => m.revision).sort()).toEqual([commit, commitFor("tiny-llm-v2")].sort());
    // A refresh agrees with what the download registered.
    const report = await s.models.refresh("default");
    expect(report.profiles[0]).toMatchObject({ added: 0, removed: 0, updated: 0, unchanged: 2 });
    s.close();
  });

  test("a connection cut mid-file leaves a partial blob that the next run resumes, checksum verified", async () => {
    const s = services();
    hub.cutNext("weights/large.bin", 1024 * 1024);
    const first = await s.downloads.settled((await s.downloads.start({ repo: "acme/big-whisper" })).id);
    expect(first.state).toBe("failed");
    expect(first.error?.message).toContain("run the same `svc model add` again");
    expect(s.models.list({ repo: "acme/big-whisper" })).toEqual([]);
    const repoDir = join(profile.home_dir, "models", "models--acme--big-whisper");
    const commit = commitFor("acme/big-whisper");
    const blobs = readdirSync(join(repoDir, "blobs"));
    const partial = blobs.find((name) => name.endsWith(".incomplete"));
    expect(partial).toBeDefined();
    const kept = statSync(join(repoDir, "blobs", partial!)).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(LARGE);
    // Not registered by a refresh either: no snapshot folder exists before every blob is verified.
    expect(existsSync(join(repoDir, "snapshots", commit))).toBe(false);
    expect(existsSync(join(repoDir, `.svc-partial-${commit}`))).toBe(true);
    await s.models.refresh("default");
    expect(s.models.list({ repo: "acme/big-whisper" })).toEqual([]);

    const sentBefore = hub.bytesSent.get("weights/large.bin") ?? 0;
    const second = await s.downloads.settled((await s.downloads.start({ repo: "acme/big-whisper" })).id);
    expect(second.error).toBeUndefined();
    expect(second.state).toBe("completed");
    expect(second.bytesResumed).toBeGreaterThanOrEqual(kept);
    const ranged = hub.requests.filter((r) => r.path.startsWith("/cdn/") && r.range);
    expect(ranged.at(-1)?.range).toBe(`bytes=${kept}-`);
    expect((hub.bytesSent.get("weights/large.bin") ?? 0) - sentBefore).toBe(LARGE - kept);
    const blob = join(repoDir, "snapshots", commit, "weights/large.bin");
    expect(sha256(readFileSync(blob))).toBe(sha256(bytes(LARGE, 7)));
    expect(second.model).toMatchObject({ image: "speech-recognition", revision: commit });
    expect(existsSync(join(repoDir, `.svc-partial-${commit}`))).toBe(false);
    s.close();
  });

  test("malformed repo ids and revisions are refused before any path or URL is built", async () => {
    const s = services();
    const before = hub.requests.length;
    for (const repo of ["../etc", "acme/../x", "acme", "a/b/c", "acme/tiny llm", "", "ac--me/x", "/abs/x"]) {
      const error = await rejection(s.downloads.start({ repo }));
      expect(error.status).toBe(400);
      expect(error.message).toContain("<owner>/<name>");
    }
    for (const revision of ["../main", "a/../b", "-x", "x y", "a".repeat(200)]) {
      const error = await rejection(s.downloads.start({ repo: "acme/tiny-llm", revision }));
      expect(error.status).toBe(400);
      expect(error.message).toContain("branch, tag or 40-character commit");
    }
    expect(hub.requests.length).toBe(before);
    s.close();
  });

  test("missing, private and gated repos and missing revisions answer with a message about HF_TOKEN", async () => {
    const s = services();
    const missing = await rejection(s.downloads.start({ repo: "acme/nothing" }));
    expect([missing.status, missing.code]).toEqual([404, "hub_not_found"]);
    expect(missing.message).toContain("HF_TOKEN");
    const secret = await rejection(s.downloads.start({ repo: "acme/secret" }));
    expect(secret.code).toBe("hub_not_found");
    expect(secret.message).toContain("HF_TOKEN");
    const revision = await rejection(s.downloads.start({ repo: "acme/tiny-llm", revision: "no-such-branch" }));
    expect([revision.status, revision.code]).toEqual([404, "hub_not_found"]);
    expect(revision.message).toContain("revision");
    expect(revision.message).toContain("HF_TOKEN");
    const gated = await rejection(s.downloads.start({ repo: "acme/gated" }));
    expect([gated.status, gated.code]).toEqual([403, "hub_access_denied"]);
    expect(gated.message).toContain("HF_TOKEN");
    s.close();
    // With a granted token both work; the token is sent to the hub.
    const withToken = makeServices({ profiles: [profile], hubUrl: hub.url, hubToken: "hf_granted" });
    for (const repo of ["acme/gated", "acme/secret"]) {
      const task = await withToken.downloads.settled((await withToken.downloads.start({ repo })).id);
      expect(task.state).toBe("completed");
    }
    expect(hub.requests.at(-1)?.authorization).toBe("Bearer hf_granted");
    withToken.close();
  });

  test("slurm profiles, unknown profiles and unclassifiable models", async () => {
    const s = services();
    const local = await rejection(s.downloads.start({ repo: "acme/tiny-llm", profile: "cluster" }));
    expect([local.status, local.code]).toEqual([400, "download_local_only"]);
    expect(local.message).toContain("local profiles only");
    const unknown = await rejection(s.downloads.start({ repo: "acme/tiny-llm", profile: "nope" }));
    expect(unknown.status).toBe(404);
    const bert = await s.downloads.settled((await s.downloads.start({ repo: "acme/bert" })).id);
    expect(bert.state).toBe("failed");
    expect(bert.error?.error).toBe("unclassified_model");
    expect(s.models.list({ repo: "acme/bert" })).toEqual([]);
    s.close();
  });

  test("a file that does not match its checksum is deleted and the download fails; the next one succeeds", async () => {
    const fresh = localProfile("fresh", tempDir());
    const t = makeServices({ profiles: [fresh], hubUrl: hub.url });
    hub.corruptNext("model.safetensors");
    const bad = await t.downloads.settled((await t.downloads.start({ repo: "acme/tiny-llm", profile: "fresh" })).id);
    expect(bad.state).toBe("failed");
    expect(bad.error?.error).toBe("checksum_mismatch");
    expect(bad.error?.message).toContain("model.safetensors does not match the hub's sha256");
    const blobs = readdirSync(join(fresh.home_dir, "models", "models--acme--tiny-llm", "blobs"));
    expect(blobs.some((b) => b.endsWith(".incomplete"))).toBe(false);
    expect(t.models.list()).toEqual([]);
    const good = await t.downloads.settled((await t.downloads.start({ repo: "acme/tiny-llm", profile: "fresh" })).id);
    expect(good.state).toBe("completed");
    t.close();
  });

  test("no space left on the device: a clear error, and what was written is kept", async () => {
    const fresh = localProfile("full", tempDir());
    const t = makeServices({ profiles: [fresh], hubUrl: hub.url });
    // Writing to /dev/full fails with ENOSPC: make the partial blob of the large file point there.
    const repoDir = join(fresh.home_dir, "models", "models--acme--big-whisper");
    mkdirSync(join(repoDir, "blobs"), { recursive: true });
    symlinkSync("/dev/full", join(repoDir, "blobs", `${sha256(bytes(LARGE, 7))}.incomplete`));
    const task = await t.downloads.settled((await t.downloads.start({ repo: "acme/big-whisper", profile: "full" })).id);
    expect(task.state).toBe("failed");
    expect(task.error?.error).toBe("no_space");
    expect(task.error?.message).toContain("No space left on the device");
    expect(task.error?.message).toContain("resumes where it stopped");
    // The files fetched before are kept for the resume.
    expect(task.filesDone).toBeGreaterThan(0);
    expect(readdirSync(join(repoDir, "blobs")).filter((b) => !b.endsWith(".incomplete")).length).toBe(task.filesDone);
    t.close();
  });

  test("a paged file listing is followed to its end", async () => {
    const s = services();
    const task = await s.downloads.settled((await s.downloads.start({ repo: "acme/paged" })).id);
    expect(task.state).toBe("completed");
    expect(task.filesTotal).toBe(8);
    expect(hub.requests.filter((r) => r.path.includes("/tree/") && r.path.includes("acme/paged")).length).toBe(3);
    s.close();
  });
});
