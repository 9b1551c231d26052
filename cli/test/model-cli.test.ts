import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { currentUserName } from "@svc/platform/process";
import { join } from "node:path";
import { runSvc, startSvc, tempHome, type RunningSvc, commitOf, files, writeCachedSnapshot, bytes, commitFor, startFakeHub, tinyRepo, type FakeHub } from "@svc/testing";

/** The whole application (`svc start`) with a local default profile, a fake hub as HF_ENDPOINT, and the CLI. */
let app: RunningSvc;
let hub: FakeHub;
let base: string;
let env: Record<string, string>;

beforeAll(async () => {
  base = tempHome("svc-model-cli-");
  hub = startFakeHub({
    repos: [tinyRepo("acme/tiny-llm", "causal-lm", { extra: [{ path: "big.bin", content: bytes(2 * 1024 * 1024, 3), lfs: true }] }), tinyRepo("acme/gated", "causal-lm", { gated: true })],
  });
  const svcHome = join(base, "svc");
  mkdirSync(svcHome, { recursive: true });
  mkdirSync(join(base, "home"), { recursive: true });
  mkdirSync(join(base, "cache"), { recursive: true });
  writeFileSync(join(svcHome, "profiles.cfg"), `[default]\nschema = local\nhome_dir = ${join(base, "home")}\ncache_dir = ${join(base, "cache")}\n`);
  app = await startSvc({ home: svcHome, env: { HF_ENDPOINT: hub.url, HF_TOKEN: "" } });
  env = { SVC_HOME_DIR: svcHome, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port) };
});
afterAll(async () => {
  await app?.cleanup();
  hub?.stop();
  rmSync(base, { recursive: true, force: true });
});

describe("svc model ls and svc model add through the running application", () => {
  test("ls --refresh finds the cache's snapshots; filters and --json", async () => {
    writeCachedSnapshot(join(base, "cache", "models"), "openai/whisper-tiny", commitOf("w"), files.whisper(), ["main"]);
    writeCachedSnapshot(join(base, "cache", "models"), "google/bert", commitOf("b"), files.bert());
    const empty = await runSvc(["model", "ls"], env);
    expect(empty.code).toBe(0);
    expect(empty.stdout.trim()).toBe("REPO  REVISION  PROFILE  IMAGE");
    const refreshed = await runSvc(["model", "ls", "--refresh"], env);
    expect(refreshed.code).toBe(0);
    expect(refreshed.stderr).toContain("Refreshed default: 1 added, 0 removed");
    expect(refreshed.stderr).toContain("not registered (default)");
    expect(refreshed.stderr).toContain("BertModel");
    expect(refreshed.stdout.split("\n")).toEqual([
      "REPO                 REVISION                                  PROFILE  IMAGE",
      `openai/whisper-tiny  ${commitOf("w")}  default  speech-recognition`,
      "",
    ]);
    const json = await runSvc(["model", "ls", "--json", "--image", "speech-recognition", "--profile", "default"], env);
    expect(JSON.parse(json.stdout)).toMatchObject([{ repo: "openai/whisper-tiny", image: "speech-recognition", profile: "default" }]);
    const none = await runSvc(["model", "ls", "--image", "text-generation"], env);
    expect(none.stdout.trim()).toBe("REPO  REVISION  PROFILE  IMAGE");
  });

  test("bad input: exit codes and messages", async () => {
    const image = await runSvc(["model", "ls", "--image", "vision"], env);
    expect(image.code).toBe(2);
    expect(image.stderr).toContain("--image must be text-generation or speech-recognition");
    const repo = await runSvc(["model", "add", "../etc/passwd"], env);
    expect(repo.code).toBe(1);
    expect(repo.stderr).toContain("is not a model repo id: expected <owner>/<name>");
    expect(repo.stderr).not.toContain("    at ");
    const profile = await runSvc(["model", "ls", "--refresh", "--profile", "nope"], env);
    expect(profile.code).toBe(1);
    expect(profile.stderr).toContain("nope");
    const gated = await runSvc(["model", "add", "acme/gated"], env);
    expect(gated.code).toBe(1);
    expect(gated.stderr).toContain("HF_TOKEN");
    const missing = await runSvc(["model", "add", "acme/none", "--revision", "v9"], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("HF_TOKEN");
    const usage = await runSvc(["model", "add"], env);
    expect(usage.code).toBe(2);
  });

  test("add downloads with progress lines and ends with the new row; a cut download resumes", async () => {
    hub.cutNext("big.bin", 512 * 1024);
    const cut = await runSvc(["model", "add", "acme/tiny-llm"], env);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain("run the same `svc model add` again");
    const add = await runSvc(["model", "add", "acme/tiny-llm", "--revision", "main"], env);
    expect(add.stderr).toContain("resuming with");
    expect(add.stderr).toMatch(/\d+(\.\d+)? MiB \/ 2\.00 MiB +100%/);
    expect(add.code).toBe(0);
    const commit = commitFor("acme/tiny-llm");
    expect(add.stdout).toContain(`acme/tiny-llm  ${commit}  default  text-generation`);
    expect(add.stdout).toContain(join(base, "home", "models", "models--acme--tiny-llm", "snapshots", commit));
    const ls = await runSvc(["model", "ls", "--image", "text-generation"], env);
    expect(ls.stdout).toContain(`acme/tiny-llm  ${commit}  default  text-generation`);
  });
});

describe("a slurm profile with host = localhost (svc on the cluster's login node)", () => {
  test("ls --refresh scans its folders on this machine, without SSH", async () => {
    const profiles = join(app.home, "profiles.cfg");
    const before = readFileSync(profiles, "utf8");
    const onsite = join(base, "onsite");
    mkdirSync(join(onsite, "home"), { recursive: true });
    writeCachedSnapshot(join(onsite, "cache", "models"), "acme/onsite-llm", commitOf("onsite"), files.causalLm(), ["main"]);
    // No SSH server answers for localhost here, so a scan over SSH could only fail.
    writeFileSync(profiles, `${before}\n[onsite]\nschema = slurm\nhost = localhost\nuser = ${currentUserName()}\nhome = ${join(onsite, "home")}\ncache = ${join(onsite, "cache")}\n`);
    try {
      const refreshed = await runSvc(["model", "ls", "--refresh", "--profile", "onsite"], env);
      expect(refreshed.stderr).toContain("Refreshed onsite: 1 added, 0 removed");
      expect(refreshed.stderr).not.toContain("SSH command");
      expect(refreshed.code).toBe(0);
      const json = JSON.parse((await runSvc(["model", "ls", "--json", "--profile", "onsite"], env)).stdout);
      expect(json).toMatchObject([{ repo: "acme/onsite-llm", revision: commitOf("onsite"), profile: "onsite", image: "text-generation" }]);
      expect(json[0].modelDir).toStartWith(join(onsite, "cache", "models", "models--acme--onsite-llm", "snapshots"));
    } finally {
      writeFileSync(profiles, before);
    }
  });
});
