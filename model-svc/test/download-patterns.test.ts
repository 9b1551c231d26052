import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ApiError } from "@svc/platform";
import { bytes, commitFor, startFakeHub, type FakeFile, type FakeHub, type FakeRepo } from "@svc/testing";
import { localProfile, makeServices, tempDir } from "./helpers";

const base = tempDir();
const gguf = (seed: number, size = 3000): Uint8Array => Uint8Array.from([...Buffer.from("GGUF"), ...bytes(size, seed)]);
const files: FakeFile[] = [
  { path: "README.md", content: Buffer.from("---\nlicense: mit\n---\n# quantised\n"), lfs: false },
  { path: "model.Q4_K_M.gguf", content: gguf(1), lfs: true },
  { path: "model.Q8_0.gguf", content: gguf(2), lfs: true },
  { path: "old/model.Q4_K_M.gguf", content: gguf(3), lfs: true },
];
const MAIN = commitFor("quant-main");
const TAGGED = commitFor("quant-v1");
const repo: FakeRepo = {
  id: "acme/quant-gguf",
  commits: { [MAIN]: files, [TAGGED]: files.slice(0, 2) },
  // A branch and a tag: the hub resolves both through the same API.
  refs: { main: MAIN, "v1.0": TAGGED },
};
let hub: FakeHub;

beforeAll(() => {
  hub = startFakeHub({ repos: [repo] });
});
afterAll(() => {
  hub.stop();
  rmSync(base, { recursive: true, force: true });
});

const fetchedPaths = (since: number) =>
  hub.requests.slice(since).filter((r) => r.method === "GET" && r.path.includes("/resolve/")).map((r) => decodeURIComponent(r.path.split("/resolve/")[1].split("/").slice(1).join("/")));

describe("svc model add --include/--exclude and --revision", () => {
  test("only the selected files are fetched; the snapshot is registered as partial, and a whole download later completes it", async () => {
    const profile = localProfile("quant", base);
    const s = makeServices({ profiles: [profile], hubUrl: hub.url });
    const repoDir = join(profile.home_dir, "models", "models--acme--quant-gguf");
    const snapshot = join(repoDir, "snapshots", MAIN);

    const before = hub.requests.length;
    const started = await s.downloads.start({ repo: "acme/quant-gguf", profile: "quant", include: ["*Q4_K_M*"], exclude: ["old/"] });
    expect(started).toMatchObject({ filesTotal: 1, filesSkipped: 3, include: ["*Q4_K_M*"], exclude: ["old/"], bytesTotal: files[1].content.length });
    const task = await s.downloads.settled(started.id);
    expect(task.error).toBeUndefined();
    expect(task.model).toMatchObject({ repo: "acme/quant-gguf", revision: MAIN, image: "text-generation", partial: true, sizeBytes: files[1].content.length });
    expect(fetchedPaths(before)).toEqual(["model.Q4_K_M.gguf"]);
    expect(readdirSync(snapshot)).toEqual(["model.Q4_K_M.gguf"]);
    const kept = JSON.parse(readFileSync(join(repoDir, `.svc-files-${MAIN}.json`), "utf8"));
    expect(kept).toEqual({ files: files.map((f) => f.path), include: ["*Q4_K_M*"], exclude: ["old/"] });

    // A refresh reads the kept file list: still partial, nothing changed.
    const refreshed = await s.models.refresh("quant");
    expect(refreshed.profiles[0]).toMatchObject({ added: 0, removed: 0, updated: 0, unchanged: 1 });
    expect(s.models.list({ profile: "quant" }).map((m) => m.partial)).toEqual([true]);
    // A registry rebuilt from disk alone (a new database) agrees.
    const fresh = makeServices({ profiles: [profile], hubUrl: hub.url });
    await fresh.models.refresh("quant");
    expect(fresh.models.list({ profile: "quant" }).map((m) => m.partial)).toEqual([true]);
    fresh.close();

    // The whole repo: only the missing files are fetched, and the row is whole.
    const again = hub.requests.length;
    const whole = await s.downloads.settled((await s.downloads.start({ repo: "acme/quant-gguf", profile: "quant" })).id);
    expect(whole).toMatchObject({ state: "completed", filesTotal: 4, filesSkipped: 0 });
    expect(whole.model?.partial).toBe(false);
    expect(fetchedPaths(again).sort()).toEqual(["README.md", "model.Q8_0.gguf", "old/model.Q4_K_M.gguf"]);
    expect(s.models.list({ profile: "quant" }).map((m) => m.partial)).toEqual([false]);
    const after = await s.models.refresh("quant");
    expect(after.profiles[0]).toMatchObject({ updated: 0, unchanged: 1 });
    s.close();
  });

  test("patterns that select nothing are refused before any download, listing the repo's files", async () => {
    const s = makeServices({ profiles: [localProfile("none", base)], hubUrl: hub.url });
    const before = hub.requests.length;
    let error: unknown;
    await s.downloads.start({ repo: "acme/quant-gguf", profile: "none", include: ["*.safetensors"] }).catch((e) => (error = e));
    expect(error).toBeInstanceOf(ApiError);
    expect([(error as ApiError).status, (error as ApiError).code]).toEqual([400, "no_matching_files"]);
    expect((error as ApiError).message).toContain("No file of acme/quant-gguf at main is selected by --include '*.safetensors'");
    expect((error as ApiError).message).toContain("model.Q8_0.gguf");
    expect(fetchedPaths(before)).toEqual([]);
    expect(existsSync(join(base, "none", "home", "models", "models--acme--quant-gguf", "blobs"))).toBe(false);
    s.close();
  });

  test("--revision takes a tag or a full commit id, resolved through the hub", async () => {
    const profile = localProfile("revs", base);
    const s = makeServices({ profiles: [profile], hubUrl: hub.url });
    const repoDir = join(profile.home_dir, "models", "models--acme--quant-gguf");
    const tagged = await s.downloads.settled((await s.downloads.start({ repo: "acme/quant-gguf", profile: "revs", revision: "v1.0" })).id);
    expect(tagged).toMatchObject({ state: "completed", requestedRevision: "v1.0", revision: TAGGED, filesTotal: 2 });
    expect(readFileSync(join(repoDir, "refs", "v1.0"), "utf8")).toBe(TAGGED);
    const byCommit = await s.downloads.settled((await s.downloads.start({ repo: "acme/quant-gguf", profile: "revs", revision: MAIN, include: ["*.md", "*Q8*"] })).id);
    expect(byCommit).toMatchObject({ state: "completed", requestedRevision: MAIN, revision: MAIN, filesTotal: 2, filesSkipped: 2 });
    expect(readdirSync(join(repoDir, "refs"))).toEqual(["v1.0"]);
    expect(s.models.list({ profile: "revs" }).map((m) => [m.revision, m.partial]).sort()).toEqual([
      [MAIN, true],
      [TAGGED, false],
    ].sort());
    s.close();
  });
});
