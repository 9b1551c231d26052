/**
 * `bun bench/model-ls.ts [repos=1000] [revisions=3] [--no-ssh]`: `svc model ls --refresh` over a
 * generated Hugging Face cache of repos × revisions, scanned locally and — with Docker, against
 * the test sshd (images/slurm-test) — over SSH. Prints the times, rows, and the SSH round trips
 * (remote commands actually run, counted on the ssh2 client).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { Client } from "ssh2";
import type { LocalProfile, SlurmProfile } from "@svc/contracts";
import { openModelDb, ModelService, scanProfile, staticProfileSource } from "@svc/model-svc";
import { commitOf, files, writeCachedSnapshot, type CacheFile } from "@svc/testing";

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const repos = Number(args[0] ?? 1000);
const revisions = Number(args[1] ?? 3);
const withSsh = !process.argv.includes("--no-ssh");

const base = mkdtempSync(join(tmpdir(), "svc-bench-models-"));
const home = join(base, "home");
const cache = join(base, "cache");

// The cache: a mix of kinds, every revision with a ref, blobs shared between revisions.
const kinds: (() => CacheFile[])[] = [() => files.causalLm(), () => files.whisper(), () => files.gguf(), () => [...files.cardOnly("text-generation"), { path: "weights.bin", content: "w" }]];
let t = performance.now();
for (let r = 0; r < repos; r++) {
  const root = r % 2 === 0 ? cache : home;
  for (let v = 0; v < revisions; v++) {
    const list = kinds[r % kinds.length]();
    list.push({ path: "tokenizer.json", content: `{"v":${v}}` });
    writeCachedSnapshot(join(root, "models"), `org${r % 50}/model-${r}`, commitOf(`${r}-${v}`), list, v === revisions - 1 ? ["main"] : [`v${v}`]);
  }
}
console.log(`generated ${repos} repos × ${revisions} revisions = ${repos * revisions} snapshots in ${((performance.now() - t) / 1000).toFixed(1)} s (${base})`);

// Count remote commands on every ssh2 connection.
let execs = 0;
const exec = Client.prototype.exec;
Client.prototype.exec = function (this: Client, ...rest: unknown[]) {
  execs++;
  return (exec as (...a: unknown[]) => unknown).apply(this, rest) as ReturnType<typeof exec>;
} as typeof exec;

async function measure(label: string, profile: LocalProfile | SlurmProfile, ssh = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-bench-db-"));
  const models = new ModelService({ db: openModelDb(dataDir), profiles: staticProfileSource([profile]), scan: (p) => scanProfile(p, ssh) });
  for (const round of ["first (all new)", "again (no change)"]) {
    const before = execs;
    const started = performance.now();
    const report = await models.refresh(profile.name);
    const ms = performance.now() - started;
    const p = report.profiles[0];
    if (p.status !== "ok") throw new Error(`${label}: ${p.error}`);
    console.log(
      `${label.padEnd(6)} refresh ${round.padEnd(18)} ${(ms / 1000).toFixed(2).padStart(6)} s  ` +
        `added ${p.added} unchanged ${p.unchanged} issues ${report.issues.length}  SSH round trips ${execs - before}`,
    );
  }
  const started = performance.now();
  const rows = models.list({ profile: profile.name });
  console.log(`${label.padEnd(6)} list ${rows.length} rows ${((performance.now() - started) / 1000).toFixed(3)} s`);
  rmSync(dataDir, { recursive: true, force: true });
}

try {
  await measure("local", { name: "default", schema: "local", home_dir: home, cache_dir: cache });
  if (withSsh) {
    const { startSshTestHost, writeKeyPair } = await import("@svc/testing");
    const key = writeKeyPair(join(base, "ssh", ".ssh"));
    t = performance.now();
    const host = await startSshTestHost({ authorizedKeys: [key.publicKey] });
    try {
      const tar = Bun.spawnSync(["tar", "-C", base, "-cf", "-", "home", "cache"], { stdout: "pipe" });
      await host.container.exec(["install", "-d", "-o", "svc", "-g", "svc", "/home/svc/bench"]);
      await host.container.copyArchiveToContainer(Readable.from(tar.stdout), "/home/svc/bench");
      await host.container.exec(["chown", "-R", "svc:svc", "/home/svc/bench"]);
      console.log(`ssh test host up and cache copied in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      const profile: SlurmProfile = { name: "cluster", schema: "slurm", host: "127.0.0.1", port: host.port, user: "svc", home: "~/bench/home", cache: "/home/svc/bench/cache" };
      await measure("ssh", profile, { userHome: join(base, "ssh"), env: { HOME: join(base, "ssh") } });
    } finally {
      await host.stop();
    }
  }
} finally {
  Client.prototype.exec = exec;
  rmSync(base, { recursive: true, force: true });
}
