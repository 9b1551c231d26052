/**
 * `npm test`: prepares the machine (tests/setup/prepare.sh), runs `bun test` on every test file, then
 * the Python API's pytest suite (tests/setup/python-tests.ts), and ends with the plain line
 * `N passed, N failed` that CI reads, counting both. `npm test -- <files>` runs only those bun tests.
 *
 * The few files that mostly wait on wall-clock time (LONG_WAITING_FILES: a five-minute soak, Slurm
 * time limits, a two-minute stream) run in a second `bun test` beside the rest, so the suite takes
 * about as long as its longest half; their output is printed when they end.
 */
import { runPythonTests } from "./python-tests";

const root = new URL("../..", import.meta.url).pathname;
const LONG_WAITING_FILES = ["tests/app/renewal-soak.test.ts", "tests/app/batch-slurm.test.ts", "tests/app/gateway-limits.test.ts"];

interface Counts {
  passed: number;
  failed: number;
}

/** One `bun test` run; its results and summary (which bun writes to stderr) go to `write` as they come. */
async function bunTest(args: string[], write: (text: string) => void): Promise<Counts> {
  const proc = Bun.spawn([process.execPath, "test", "--timeout", "60000", ...args], {
    cwd: root,
    stdout: "inherit",
    stderr: "pipe",
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  const counts: Counts = { passed: 0, failed: 0 };
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of proc.stderr as unknown as AsyncIterable<Uint8Array>) {
    const text = decoder.decode(chunk, { stream: true });
    write(text);
    pending += text;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const pass = line.match(/^\s*(\d+) pass$/);
      const fail = line.match(/^\s*(\d+) fail$/);
      if (pass) counts.passed = Number(pass[1]);
      if (fail) counts.failed = Number(fail[1]);
    }
  }
  if ((await proc.exited) !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

const prepare = Bun.spawnSync(["bash", `${root}tests/setup/prepare.sh`], { stdout: "inherit", stderr: "inherit" });
if (prepare.exitCode !== 0) {
  console.log("0 passed, 1 failed");
  process.exit(1);
}

const total: Counts = { passed: 0, failed: 0 };
const add = (counts: Counts) => {
  total.passed += counts.passed;
  total.failed += counts.failed;
};
const echo = (text: string) => process.stderr.write(text);

if (process.argv.length > 2) {
  add(await bunTest(process.argv.slice(2), echo));
} else {
  let waitingOutput = "";
  const [rest, waiting] = await Promise.all([
    bunTest(LONG_WAITING_FILES.map((file) => `--path-ignore-patterns=${file}`), echo),
    bunTest(LONG_WAITING_FILES, (text) => (waitingOutput += text)),
  ]);
  process.stderr.write(`\nThe long-waiting test files, run beside the others:\n${waitingOutput}`);
  add(rest);
  add(waiting);
  add(await runPythonTests(root));
}
console.log(`${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed > 0 ? 1 : 0);
