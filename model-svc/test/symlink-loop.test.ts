/**
 * A snapshot with symlink loops: the local scanner and the remote scan script (run by sh here; over
 * SSH in ssh-scan.test.ts) both finish, and still register the model. Each scan runs in a child
 * process with a deadline, so a walk that never ends fails the test instead of hanging it.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeLoopingCache } from "@svc/testing";
import { buildScanScript } from "../src/discovery/scan-remote";
import { tempDir } from "./helpers";

const base = tempDir("symlink-loop-");
const models = join(base, "models");
mkdirSync(models);
const looping = makeLoopingCache(models);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const DEADLINE_MS = 10_000;
const here = (file: string) => new URL(file, import.meta.url).pathname;

function interpretedInChild(source: string): { rows: { repo: string; revision: string }[] } {
  const file = join(base, "scan-in-child.ts");
  writeFileSync(file, source);
  const child = Bun.spawnSync([process.execPath, file], { stdout: "pipe", stderr: "pipe", timeout: DEADLINE_MS });
  expect(child.signalCode ?? null, `the scan did not finish within ${DEADLINE_MS / 1000} s`).toBeNull();
  expect(child.exitCode, child.stderr.toString()).toBe(0);
  return JSON.parse(child.stdout.toString());
}

const report = `const { found } = interpretScan("p", roots);
console.log(JSON.stringify({ rows: found.map(({ repo, revision }) => ({ repo, revision })) }));`;

test("the local scanner walks each folder once: the loop is skipped, the model registered", () => {
  const result = interpretedInChild(`import { scanLocal } from ${JSON.stringify(here("../src/discovery/scan-local.ts"))};
import { interpretScan } from ${JSON.stringify(here("../src/discovery/interpret.ts"))};
const roots = scanLocal([${JSON.stringify(models)}]);
${report}`);
  expect(result.rows).toEqual([{ repo: looping.repo, revision: looping.commit }]);
});

test("the remote scan script, run by sh, skips the loop too", () => {
  const script = join(base, "scan.sh");
  writeFileSync(script, buildScanScript([models]));
  const result = interpretedInChild(`import { parseScanOutput } from ${JSON.stringify(here("../src/discovery/scan-remote.ts"))};
import { interpretScan } from ${JSON.stringify(here("../src/discovery/interpret.ts"))};
const out = Bun.spawnSync(["sh", ${JSON.stringify(script)}], { stdout: "pipe" });
const roots = parseScanOutput(out.stdout);
${report}`);
  expect(result.rows).toEqual([{ repo: looping.repo, revision: looping.commit }]);
});
