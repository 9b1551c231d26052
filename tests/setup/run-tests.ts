/**
 * `npm test`: prepares the machine (tests/setup/prepare.sh), runs `bun test` on every test file, then
 * the Python API's pytest suite (tests/setup/python-tests.ts), and ends with the plain line
 * `N passed, N failed` that CI reads, counting both. `npm test -- <files>` runs only those bun tests.
 */
import { runPythonTests } from "./python-tests";

const root = new URL("../..", import.meta.url).pathname;

const prepare = Bun.spawnSync(["bash", `${root}tests/setup/prepare.sh`], { stdout: "inherit", stderr: "inherit" });
if (prepare.exitCode !== 0) {
  console.log("0 passed, 1 failed");
  process.exit(1);
}

const proc = Bun.spawn([process.execPath, "test", "--timeout", "60000", ...process.argv.slice(2)], {
  cwd: root,
  stdout: "inherit",
  stderr: "pipe",
  env: { ...process.env, FORCE_COLOR: "0" },
});

// bun writes test results and its summary to stderr: pass them through and keep the counts.
let passed = 0;
let failed = 0;
const decoder = new TextDecoder();
let pending = "";
for await (const chunk of proc.stderr as unknown as AsyncIterable<Uint8Array>) {
  const text = decoder.decode(chunk, { stream: true });
  process.stderr.write(text);
  pending += text;
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
    const pass = line.match(/^\s*(\d+) pass$/);
    const fail = line.match(/^\s*(\d+) fail$/);
    if (pass) passed = Number(pass[1]);
    if (fail) failed = Number(fail[1]);
  }
}
const code = await proc.exited;
if (code !== 0 && failed === 0) failed = 1;
if (process.argv.length <= 2) {
  const python = await runPythonTests(root);
  passed += python.passed;
  failed += python.failed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : code);
