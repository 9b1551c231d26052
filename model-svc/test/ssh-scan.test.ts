/**
 * Discovery of a slurm profile's model folders over SSH, against the test sshd (images/slurm-test
 * in a container, host networking, 127.0.0.1 only): the same tricky cache as discovery.test.ts,
 * scanned with ONE remote command, gives the same rows and issues as a local scan would.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { SlurmProfile } from "@svc/contracts";
import { makeTinyModels, TINY_LORA_GGUF_REPO, TINY_LORA_PEFT_REPO, TINY_SAFETENSORS_REPO, TINY_TEXT_REPO } from "@svc/runtime-tiny-models";
import {
  commitOf,
  LLAMA_3_1_8B_CONFIG,
  llamaTensors,
  makeLoopingCache,
  makeTrickyCache,
  startSshTestHost,
  writeKeyPair,
  writeShardedSafetensors,
  type SshTestHost,
} from "@svc/testing";
import { readSnapshotFacts } from "../src/facts/snapshot-facts";
import { scanLocal } from "../src/discovery/scan-local";
import type { FoundSnapshot } from "../src/discovery/interpret";
import { scanProfile } from "../src/discovery/scan-profile";
import { interpretScan } from "../src/discovery/interpret";
import { makeServices } from "./helpers";

const local = mkdtempSync(join(tmpdir(), "svc-ssh-scan-"));
const REMOTE = "/home/svc/scan";
let host: SshTestHost;
let profile: SlurmProfile;
let cache: ReturnType<typeof makeTrickyCache>;
const ssh = { userHome: local, env: { HOME: local } };

beforeAll(async () => {
  const key = writeKeyPair(join(local, ".ssh"));
  host = await startSshTestHost({ authorizedKeys: [key.publicKey] });
  // The tricky cache, made here and copied into the container under /home/svc/scan/{home,cache}.
  const base = join(local, "tree");
  cache = makeTrickyCache(base);
  const tar = Bun.spawnSync(["tar", "-C", base, "-cf", "-", "home", "cache"], { stdout: "pipe" });
  await host.container.exec(["install", "-d", "-o", "svc", "-g", "svc", REMOTE]);
  await host.container.copyArchiveToContainer(Readable.from(tar.stdout), REMOTE);
  await host.container.exec(["sh", "-c", `chown -R svc:svc ${REMOTE}`]);
  chmodSync(join(local, ".ssh"), 0o700);
  profile = { name: "cluster", schema: "slurm", host: "127.0.0.1", port: host.port, user: "svc", home: "~/scan/home", cache: `${REMOTE}/cache` };
}, 240_000);

afterAll(async () => {
  await host?.stop();
  rmSync(local, { recursive: true, force: true });
});

const remotePath = (path: string) => path.replace(join(local, "tree"), REMOTE);

test("one SSH command reports every snapshot; rows and issues match a local scan", async () => {
  const scan = await scanProfile(profile, ssh);
  expect(scan.sshRoundTrips).toBe(1);
  expect(scan.dirs).toEqual([`${REMOTE}/home/models`, `${REMOTE}/cache/models`]);
  const { found, issues } = interpretScan("cluster", scan.roots);
  const rows = found.map(({ repo, revision, image, modelDir }) => ({ repo, revision, image: image as string, modelDir })).sort((a, b) => (a.modelDir < b.modelDir ? -1 : 1));
  // The user svc is not root: the unreadable folders stay unreadable and are reported.
  const expected = cache.expected.map((row) => ({ ...row, modelDir: remotePath(row.modelDir) })).sort((a, b) => (a.modelDir < b.modelDir ? -1 : 1));
  expect(rows).toEqual(expected);
  const reasons = issues.map((i) => `${i.repo ?? i.path.split("/").pop()}: ${i.reason}`);
  for (const pattern of [
    /^acme\/locked: cannot read the folder: permission denied/,
    /^acme\/locked-snap: cannot read the snapshot/,
    /^google\/bert-base: cannot tell its service kind/,
    /^acme\/ghost: refs\/main names/,
    /^acme\/empty: the snapshot folder is empty/,
    /^acme\/broken: incomplete/,
    /^acme\/partial: its download has not finished/,
    /^models--gpt2: the folder name has no owner/,
  ]) {
    expect(reasons.some((r) => pattern.test(r))).toBe(true);
  }
  // Sizes agree with the files' sizes, as a local scan counts them.
  const nested = found.find((f) => f.revision === cache.commit("mm-2"))!;
  expect(nested.sizeBytes).toBe(JSON.stringify({ architectures: ["GPT2LMHeadModel"], model_type: "llama" }).length + "weights".length + 1);
});

test("svc model ls --refresh for a slurm profile registers the remote snapshots; an unreachable host keeps the rows", async () => {
  const s = makeServices({ profiles: [profile] });
  Object.assign(s.models, { scan: (p: SlurmProfile) => scanProfile(p, ssh) });
  const report = await s.models.refresh("cluster");
  expect(report.profiles[0]).toMatchObject({ profile: "cluster", status: "ok", added: cache.expected.length, sshRoundTrips: 1 });
  expect(s.models.list({ profile: "cluster" })).toHaveLength(cache.expected.length);
  const down = makeServices({ profiles: [{ ...profile, port: 1 }], dataDir: s.dataDir });
  Object.assign(down.models, { scan: (p: SlurmProfile) => scanProfile(p, ssh) });
  const failed = await down.models.refresh("cluster");
  expect(failed.profiles[0].status).toBe("failed");
  expect(failed.profiles[0].error).toContain("Cannot reach");
  expect(down.models.list({ profile: "cluster" })).toHaveLength(cache.expected.length);
  s.close();
  down.close();
});

test("a snapshot with symlink loops on the cluster is scanned over SSH to its end, and its model registered", async () => {
  const tree = join(local, "looping");
  const looping = makeLoopingCache(join(tree, "models"));
  const tar = Bun.spawnSync(["tar", "-C", tree, "-cf", "-", "models"], { stdout: "pipe" });
  await host.container.exec(["install", "-d", "-o", "svc", "-g", "svc", `${REMOTE}/looping`]);
  await host.container.copyArchiveToContainer(Readable.from(tar.stdout), `${REMOTE}/looping`);
  await host.container.exec(["sh", "-c", `chown -R svc:svc ${REMOTE}/looping`]);
  const scan = await scanProfile({ ...profile, home: `${REMOTE}/looping`, cache: `${REMOTE}/no-cache` }, ssh);
  const { found } = interpretScan("cluster", scan.roots);
  expect(found.map(({ repo, revision }) => ({ repo, revision }))).toEqual([{ repo: looping.repo, revision: looping.commit }]);
});

/** The 8-byte header length of a safetensors file, read here. */
function headerEnd(path: string): number {
  const fd = openSync(path, "r");
  const head = Buffer.alloc(8);
  readSync(fd, head, 0, 8, 0);
  closeSync(fd);
  return 8 + Number(head.readBigUInt64LE(0));
}

const factsByRepo = async (found: FoundSnapshot[]) => {
  const issues = await readSnapshotFacts("cluster", found);
  return { issues, facts: Object.fromEntries(found.map((f) => [f.repo, f.facts])), adapters: Object.fromEntries(found.flatMap((f) => (f.adapter ? [[f.repo, f.adapter]] : []))) };
};

test("model facts over SSH: the same as read locally, in the one command; headers read again only when the files change", async () => {
  // An 8B model of its true size: shards copied as their headers, the holes made on the cluster with truncate.
  const tree = join(local, "facts");
  const dir = join(tree, "models", "models--meta-llama--Llama-3.1-8B-Instruct", "snapshots", commitOf("llama"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "config.json"), JSON.stringify(LLAMA_3_1_8B_CONFIG));
  const totalSize = writeShardedSafetensors(dir, llamaTensors(LLAMA_3_1_8B_CONFIG), 4);
  const shards = [1, 2, 3, 4].map((i) => ({ name: `model-0000${i}-of-00004.safetensors`, size: statSync(join(dir, `model-0000${i}-of-00004.safetensors`)).size }));
  for (const shard of shards) truncateSync(join(dir, shard.name), headerEnd(join(dir, shard.name)));
  const tar = Bun.spawnSync(["tar", "-C", tree, "-cf", "-", "models"], { stdout: "pipe" });
  for (const shard of shards) truncateSync(join(dir, shard.name), shard.size);
  const remote = `${REMOTE}/facts`;
  await host.container.exec(["install", "-d", "-o", "svc", "-g", "svc", remote]);
  await host.container.copyArchiveToContainer(Readable.from(tar.stdout), remote);
  const remoteDir = dir.replace(tree, remote);
  const sizes = shards.map((s) => `truncate -s ${s.size} ${remoteDir}/${s.name}`).join(" && ");
  expect((await host.container.exec(["sh", "-c", `${sizes} && chown -R svc:svc ${remote}`])).exitCode).toBe(0);
  // The tiny GGUF model of the image's /shared/cache, made here too.
  const tinyHere = join(local, "tiny", "models");
  makeTinyModels(tinyHere);

  const cluster = { ...profile, home: remote, cache: "/shared/cache" };
  const scan = await scanProfile(cluster, ssh);
  expect(scan.sshRoundTrips).toBe(1);
  const { found } = interpretScan("cluster", scan.roots);
  const there = await factsByRepo(found);
  const here = await factsByRepo(interpretScan("cluster", scanLocal([join(tree, "models"), tinyHere])).found);
  expect(there.issues).toEqual([]);
  expect(Object.keys(there.facts).sort()).toEqual([
    "meta-llama/Llama-3.1-8B-Instruct",
    TINY_TEXT_REPO,
    TINY_LORA_GGUF_REPO,
    TINY_LORA_PEFT_REPO,
    TINY_SAFETENSORS_REPO,
    "svc-tiny/tiny-whisper-ggml",
  ]);
  expect(there.facts).toEqual(here.facts);
  // The tiny adapters, read over SSH as here: adapter_config.json, the PEFT header, the GGUF adapter's metadata.
  expect(Object.keys(there.adapters).sort()).toEqual([TINY_LORA_GGUF_REPO, TINY_LORA_PEFT_REPO]);
  expect(there.adapters).toEqual(here.adapters);
  expect(there.adapters[TINY_LORA_GGUF_REPO]).toMatchObject({ kind: "gguf", base: TINY_TEXT_REPO, rank: 8, layers: 2 });
  expect(there.adapters[TINY_LORA_PEFT_REPO]).toMatchObject({ kind: "peft", base: TINY_SAFETENSORS_REPO, rank: 8, layers: 2, taskType: "CAUSAL_LM" });
  expect(there.facts["meta-llama/Llama-3.1-8B-Instruct"]).toMatchObject({ weightBytes: totalSize, layers: 32, dtype: "bfloat16" });
  expect(there.facts["svc-tiny/tiny-llama-gguf"]).toMatchObject({ architecture: "llama", layers: 2, dtype: "F32" });
  // A model whose files say nothing of its shape (a whisper.cpp ggml file): no facts.
  expect(there.facts["svc-tiny/tiny-whisper-ggml"]).toBeUndefined();

  // Known facts: nothing but the keys comes back; a changed shard is read again.
  const known = new Map(found.map((f) => [f.modelDir, f.factsKey!]));
  const snapshots = (roots: typeof scan.roots) => roots.flatMap((r) => r.repos.flatMap((repo) => repo.snapshots));
  const cached = snapshots((await scanProfile(cluster, ssh, known)).roots);
  expect(cached.map((s) => [s.facts.factsCached, s.facts.heads])).toEqual(cached.map(() => [true, undefined]));
  await host.container.exec(["truncate", "-s", "100", `${remoteDir}/${shards[3].name}`]);
  const changed = await scanProfile(cluster, ssh, known);
  const llama = snapshots(changed.roots).find((s) => s.path === remoteDir)!;
  expect(llama.facts.factsCached).toBeUndefined();
  expect(Object.keys(llama.facts.heads!).sort()).toEqual(shards.map((s) => s.name));
  const reread = await factsByRepo(interpretScan("cluster", changed.roots).found);
  expect(reread.issues.map((i) => i.reason)).toEqual([`its model facts are incomplete: ${shards[3].name}: the file ends inside its ${headerEnd(join(dir, shards[3].name)) - 8}-byte header`]);
});
