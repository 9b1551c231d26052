import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTrickyCache, files, writeCachedSnapshot } from "@svc/testing";
import { scanLocal } from "../src/discovery/scan-local";
import { buildScanScript, parseScanOutput } from "../src/discovery/scan-remote";
import { interpretScan } from "../src/discovery/interpret";
import type { ScannedRoot } from "../src/discovery/types";
import { tempDir } from "./helpers";

const base = tempDir("discovery-");
chmodSync(base, 0o755);
const cache = makeTrickyCache(base);
afterAll(() => rmSync(base, { recursive: true, force: true }));

/**
 * The same scan with entries in a fixed order (readdir order is the file system's). The facts key
 * is compared by presence only: the script condenses names, sizes and times with cksum, the local
 * scanner with sha256 of its own stat lines (each profile keeps keys of one kind).
 */
function normalised(roots: ScannedRoot[]) {
  // Header bytes as hex: a scan that went through JSON (another process) holds them as { type: "Buffer", data }.
  const hex = (heads?: Record<string, Uint8Array | { data: number[] }>) =>
    heads && Object.fromEntries(Object.entries(heads).map(([path, bytes]) => [path, Buffer.from("data" in bytes ? bytes.data : bytes).toString("hex")]));
  return roots.map((root) => ({
    ...root,
    repos: [...root.repos]
      .sort((a, b) => a.folder.localeCompare(b.folder))
      .map((repo) => ({
        ...repo,
        partial: [...repo.partial].sort(),
        snapshots: [...repo.snapshots]
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((s) => ({ ...s, facts: { ...s.facts, factsKey: Boolean(s.facts.factsKey), heads: hex(s.facts.heads), files: [...s.facts.files].sort((a, b) => a.path.localeCompare(b.path)) } })),
      })),
  }));
}

const rowsOf = (found: { repo: string; revision: string; image: string; modelDir: string }[]) =>
  found.map(({ repo, revision, image, modelDir }) => ({ repo, revision, image, modelDir })).sort((a, b) => (a.modelDir < b.modelDir ? -1 : 1));
const sorted = <T extends { modelDir: string }>(rows: T[]) => [...rows].sort((a, b) => (a.modelDir < b.modelDir ? -1 : 1));

/** Runs the remote scan script with a local sh, optionally as another user. */
function runScript(roots: string[], user?: string): Buffer {
  const file = join(base, "scan.sh");
  writeFileSync(file, buildScanScript(roots));
  chmodSync(file, 0o644);
  const command = user ? ["runuser", "-u", user, "--", "sh", file] : ["sh", file];
  const result = Bun.spawnSync(command, { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(result.stderr.toString());
  return result.stdout;
}

describe("discovery over a generated hub cache", () => {
  test("finds every complete, classifiable snapshot of home and cache, once each", () => {
    const { found } = interpretScan("p", scanLocal(cache.roots));
    const isRoot = process.getuid?.() === 0;
    expect(rowsOf(found)).toEqual(sorted([...cache.expected, ...(isRoot ? cache.rootOnly : [])]));
    const both = found.find((f) => f.repo === "acme/both")!;
    expect(both.modelDir.startsWith(cache.home)).toBe(true);
    const nested = found.find((f) => f.revision === cache.commit("mm-2"))!;
    expect(nested.sizeBytes).toBe(JSON.stringify({ architectures: ["GPT2LMHeadModel"], model_type: "llama" }).length + "weights".length + 1);
  });

  test("reports what it does not register, with the reason", () => {
    const { issues } = interpretScan("p", scanLocal(cache.roots));
    const reasons = issues.map((i) => `${i.repo ?? i.path.split("/").pop()}: ${i.reason}`);
    const expectIssue = (pattern: RegExp) => expect(reasons.some((r) => pattern.test(r))).toBe(true);
    expectIssue(/^google\/bert-base: cannot tell its service kind .*BertModel.*pipeline_tag fill-mask/);
    expectIssue(/^acme\/ghost: refs\/main names [0-9a-f]{40}, which has no snapshot folder/);
    expectIssue(/^acme\/empty: the snapshot folder is empty/);
    expectIssue(/^acme\/broken: incomplete: model-2\.safetensors points to missing files/);
    expectIssue(/^acme\/partial: its download has not finished/);
    expectIssue(/^acme\/odd: the snapshot folder name is not a 40-character commit id/);
    expectIssue(/^models--gpt2: the folder name has no owner/);
    // Other kinds of cache entries are not models and are ignored silently.
    expect(reasons.some((r) => /datasets--|\.locks|version\.txt/.test(r))).toBe(false);
  });

  test("the remote scan script, run by sh, sees exactly what the local scanner sees", () => {
    const remote = parseScanOutput(runScript(cache.roots));
    expect(normalised(remote)).toEqual(normalised(scanLocal(cache.roots)));
  });

  test("unreadable folders are reported, by the local scanner and by the script alike", () => {
    // Root reads everything: look as an unprivileged user.
    const script = interpretScan("p", parseScanOutput(runScript(cache.roots, "nobody")));
    const local = Bun.spawnSync(
      [
        "runuser", "-u", "nobody", "--", process.execPath, "-e",
        `import { scanLocal } from ${JSON.stringify(join(import.meta.dir, "../src/discovery/scan-local.ts"))};
         console.log(JSON.stringify(scanLocal(${JSON.stringify(cache.roots)})));`,
      ],
      { stdout: "pipe", stderr: "pipe", cwd: join(import.meta.dir, "..") },
    );
    expect(local.stderr.toString()).toBe("");
    const viaLocal = interpretScan("p", JSON.parse(local.stdout.toString()));
    for (const result of [script, viaLocal]) {
      expect(rowsOf(result.found)).toEqual(sorted(cache.expected));
      const denied = result.issues.filter((i) => /permission denied/.test(i.reason)).map((i) => i.repo).sort();
      expect(denied).toEqual(["acme/locked", "acme/locked-snap"]);
    }
    expect(normalised(JSON.parse(local.stdout.toString()))).toEqual(normalised(parseScanOutput(runScript(cache.roots, "nobody"))));
  });

  test("missing model folders are nothing to report; quoting survives odd paths", () => {
    const odd = join(base, "it's a \"dir\" $(touch pwned) `touch pwned2` *");
    writeCachedSnapshot(join(odd, "models"), "acme/odd-path", "c".repeat(40), files.gguf());
    const result = parseScanOutput(runScript([join(odd, "models"), join(base, "missing", "models")]));
    expect(result.map((r) => r.problem)).toEqual([undefined, "missing"]);
    expect(result[0].root).toBe(join(odd, "models"));
    const { found, issues } = interpretScan("p", result);
    expect(issues).toEqual([]);
    expect(found.map((f) => [f.repo, f.modelDir])).toEqual([["acme/odd-path", join(odd, "models", "models--acme--odd-path", "snapshots", "c".repeat(40))]]);
    expect(existsSync(join(base, "pwned")) || existsSync("pwned") || existsSync("pwned2")).toBe(false);
  });
});
