import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { currentUserName } from "@svc/platform/process";
import { join } from "node:path";
import {
  runSvc,
  startSvc,
  tempHome,
  type RunningSvc,
  commitOf,
  files,
  writeCachedSnapshot,
  bytes,
  commitFor,
  startFakeHub,
  startSilentHub,
  tinyRepo,
  type FakeHub,
  LLAMA_3_1_8B_CONFIG,
  llamaTensors,
  writeShardedSafetensors,
} from "@svc/testing";

/** The whole application (`svc start`) with a local default profile, a fake hub as HF_ENDPOINT, and the CLI. */
let app: RunningSvc;
let hub: FakeHub;
let base: string;
let env: Record<string, string>;

beforeAll(async () => {
  base = tempHome("svc-model-cli-");
  const quantised = tinyRepo("acme/quant", "causal-lm", {
    extra: [
      { path: "model.Q4_K_M.gguf", content: bytes(3000, 5), lfs: true },
      { path: "model.Q8_0.gguf", content: bytes(6000, 6), lfs: true },
    ],
  });
  // An older commit, tagged.
  quantised.commits[commitFor("quant-v1")] = quantised.commits[commitFor("acme/quant")].slice(0, 2);
  quantised.refs["v1.0"] = commitFor("quant-v1");
  hub = startFakeHub({
    repos: [
      tinyRepo("acme/tiny-llm", "causal-lm", { extra: [{ path: "big.bin", content: bytes(2 * 1024 * 1024, 3), lfs: true }] }),
      tinyRepo("acme/gated", "causal-lm", { gated: true }),
      quantised,
    ],
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
    expect(empty.stdout.trim()).toBe("REPO  REVISION  PROFILE  IMAGE  PARAMS  WEIGHTS  FILES");
    const refreshed = await runSvc(["model", "ls", "--refresh"], env);
    expect(refreshed.code).toBe(0);
    expect(refreshed.stderr).toContain("Refreshed default: 1 added, 0 removed");
    expect(refreshed.stderr).toContain("not registered (default)");
    expect(refreshed.stderr).toContain("BertModel");
    // Its model.safetensors is a few bytes of text (read as a huge header length): registered, with its size unknown, and said so.
    expect(refreshed.stderr).toContain("  registered (default): ");
    expect(refreshed.stderr).toContain("its model facts are incomplete: model.safetensors: its header length (");
    expect(refreshed.stdout.split("\n")).toEqual([
      "REPO                 REVISION                                  PROFILE  IMAGE               PARAMS   WEIGHTS  FILES",
      `openai/whisper-tiny  ${commitOf("w")}  default  speech-recognition  unknown  unknown  all`,
      "",
    ]);
    const json = await runSvc(["model", "ls", "--json", "--image", "speech-recognition", "--profile", "default"], env);
    expect(JSON.parse(json.stdout)).toMatchObject([{ repo: "openai/whisper-tiny", image: "speech-recognition", profile: "default" }]);
    const none = await runSvc(["model", "ls", "--image", "text-generation"], env);
    expect(none.stdout.trim()).toBe("REPO  REVISION  PROFILE  IMAGE  PARAMS  WEIGHTS  FILES");
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
    const noPattern = await runSvc(["model", "add", "acme/quant", "--include"], env);
    expect(noPattern.code).toBe(2);
    expect(noPattern.stderr).toContain("`--include <pattern>` value is missing");
    const emptyPattern = await runSvc(["model", "add", "acme/quant", "--exclude", ""], env);
    expect(emptyPattern.code).toBe(2);
    expect(emptyPattern.stderr).toContain("--exclude needs a pattern");
    const nothing = await runSvc(["model", "add", "acme/quant", "--include", "*.onnx"], env);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain("No file of acme/quant at main is selected by --include '*.onnx'");
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

  test("add --include/--exclude fetches only those files, says so, and ls marks the snapshot partial; --revision takes a tag", async () => {
    const commit = commitFor("acme/quant");
    const some = await runSvc(["model", "add", "acme/quant", "--include", "*Q4_K_M*", "--include", "*.json", "--exclude", "README*"], env);
    expect(some.code).toBe(0);
    expect(some.stderr).toContain("Asking the hub for acme/quant at main");
    expect(some.stderr).toContain(`into profile default: 2 files of 5 (--include '*Q4_K_M*' --include '*.json' --exclude 'README*')`);
    expect(some.stdout).toMatch(new RegExp(`acme/quant  ${commit}  default  text-generation  unknown  unknown  partial`));
    const snapshot = join(base, "home", "models", "models--acme--quant", "snapshots", commit);
    expect(readdirSync(snapshot).sort()).toEqual(["config.json", "model.Q4_K_M.gguf"]);
    const json = JSON.parse((await runSvc(["model", "ls", "--json"], env)).stdout);
    expect(json.find((m: { repo: string }) => m.repo === "acme/quant")).toMatchObject({ revision: commit, partial: true });

    const tagged = await runSvc(["model", "add", "acme/quant", "--revision", "v1.0"], env);
    expect(tagged.code).toBe(0);
    expect(tagged.stderr).toContain(`Downloading acme/quant at ${commitFor("quant-v1")} (v1.0) into profile default: 2 files`);
    expect(tagged.stdout).toContain(`acme/quant  ${commitFor("quant-v1")}  default  text-generation  unknown  unknown  all`);
  });
});

describe("svc model ls and svc model show: what the model's files say", () => {
  test("ls shows PARAMS and WEIGHTS from the weight headers; show prints every fact, unknown where the files say nothing", async () => {
    const llama = "meta-llama/Llama-3.1-8B-Instruct";
    const dir = join(base, "cache", "models", "models--meta-llama--Llama-3.1-8B-Instruct", "snapshots", commitOf("llama"));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.json"), JSON.stringify(LLAMA_3_1_8B_CONFIG));
    const tensors = llamaTensors(LLAMA_3_1_8B_CONFIG);
    const totalSize = writeShardedSafetensors(dir, tensors, 4);
    const parameters = tensors.reduce((sum, t) => sum + t.shape.reduce((a, b) => a * b, 1), 0);
    writeCachedSnapshot(join(base, "cache", "models"), "acme/card-only", commitOf("card"), files.cardOnly("text-generation"));

    const refreshed = await runSvc(["model", "ls", "--refresh"], env);
    expect(refreshed.code).toBe(0);
    expect(refreshed.stdout).toMatch(new RegExp(`${llama} +${commitOf("llama")} +default +text-generation +8\\.03B +16\\.1 GB +all`));
    expect(refreshed.stdout).toMatch(new RegExp(`acme/card-only +${commitOf("card")} +default +text-generation +unknown +unknown +all`));

    const json = JSON.parse((await runSvc(["model", "show", llama, "--json"], env)).stdout);
    expect(json).toMatchObject({ repo: llama, revision: commitOf("llama"), profile: "default" });
    expect(json.facts).toMatchObject({ parameters, weightBytes: totalSize, layers: 32, kvHeads: 8, headDim: 128, contextLength: 131072, dtype: "bfloat16" });
    const text = await runSvc(["model", "show", llama], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`parameters:     8.03B (${parameters.toLocaleString("en-US")})`);
    expect(text.stdout).toContain(`weights:        16.1 GB (${totalSize.toLocaleString("en-US")} bytes)`);
    expect(text.stdout).toContain("kv_heads:       8\n");
    expect(text.stdout).toContain("experts:        unknown\n");

    const card = await runSvc(["model", "show", "acme/card-only", "--profile", "default", "--revision", commitOf("card").slice(0, 8)], env);
    expect(card.code).toBe(0);
    const factLines = card.stdout.trim().split("\n").slice(6);
    expect(factLines.length).toBeGreaterThan(15);
    expect(factLines.filter((line) => !line.endsWith(" unknown"))).toEqual([]);
    expect(JSON.parse((await runSvc(["model", "show", "acme/card-only", "--json"], env)).stdout)).not.toHaveProperty("facts");

    const missing = await runSvc(["model", "show", "acme/nothing"], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("acme/nothing is not registered");
    const badRevision = await runSvc(["model", "show", "acme/card-only", "--revision", "main"], env);
    expect(badRevision.code).toBe(2);
    expect(badRevision.stderr).toContain("--revision must be a commit id");
  });
});

describe("svc model add against a hub that never answers", () => {
  test("fails within the connect timeout, naming the hub, instead of hanging", async () => {
    const silent = startSilentHub();
    const home = tempHome("svc-silent-hub-");
    mkdirSync(join(home, "models-home"));
    writeFileSync(join(home, "profiles.cfg"), `[default]\nschema = local\nhome_dir = ${join(home, "models-home")}\ncache_dir = ${join(home, "models-home")}\n`);
    const silentApp = await startSvc({ home, env: { HF_ENDPOINT: silent.url, HF_TOKEN: "", SVC_HUB_CONNECT_TIMEOUT: "1" } });
    try {
      const add = await runSvc(["model", "add", "acme/tiny-llm"], { SVC_HOME_DIR: home, SVC_HOST: "127.0.0.1", SVC_PORT: String(silentApp.port) });
      expect(add.code).toBe(1);
      expect(add.stderr).toContain(`The hub at ${silent.url} stopped answering`);
      expect(add.stderr).toContain("SVC_HUB_CONNECT_TIMEOUT");
      expect(add.stderr).not.toContain("is not answering (it may be restarting)");
    } finally {
      await silentApp.cleanup();
      silent.stop();
    }
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
