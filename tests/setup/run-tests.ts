/**
 * `npm test`: prepares the machine (tests/setup/prepare.sh) and builds the images the files need
 * (tests/setup/test-images.ts, once for all of them), runs every test file in its own
 * `bun test` process, a few at a time: four, and up to eight while the CPU has been at least a
 * quarter idle over the last 3 s (many files mostly wait: four of them at once left the 2-core
 * machine's CPU a quarter idle over a whole run; SVC_TEST_WORKERS=N runs exactly N), with the Python API's pytest suite
 * (tests/setup/python-tests.ts) as one more job. Each file's output is printed whole when it ends.
 * The end is the test time (setup not counted) and the plain line `N passed, N failed` that CI reads.
 * `npm test -- <files>` runs only those bun tests, in one `bun test` process, its output as it comes.
 */
import { bunCounts, runTestFile, type Counts, type FileRun } from "./bun-test-file";
import { failureDigest } from "./failure-digest";
import { runPythonTests } from "./python-tests";
import { watchCpuRoom } from "./cpu-room";
import { fixedWorkers, runQueue, type QueueLimits } from "./run-queue";
import { buildTestImages } from "./test-images";
import { PREBUILT_IMAGES_VARIABLE } from "@svc/testing/prebuilt-images";
import { readDurations, scheduleOrder, testFiles, writeDurations } from "./test-files";

const root = new URL("../..", import.meta.url).pathname;
const DEFAULT_WORKERS = 4;
const MOST_WORKERS = 8;
/** The idle share of the CPU over the last 3 s that lets one more file start, and then none for 5 s. */
const ROOM_IDLE_SHARE = 0.25;
const ROOM_SETTLE_MS = 5000;
const PYTHON_JOB = "clients/python (pytest)";

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The given files in one `bun test`, its output passed through; counts from its summary. */
async function bunTestAsGiven(args: string[]): Promise<Counts> {
  const proc = Bun.spawn([process.execPath, "test", "--timeout", "60000", ...args], {
    cwd: root,
    stdout: "inherit",
    stderr: "pipe",
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  let output = "";
  const decoder = new TextDecoder();
  for await (const chunk of proc.stderr as unknown as AsyncIterable<Uint8Array>) {
    const text = decoder.decode(chunk, { stream: true });
    process.stderr.write(text);
    output += text;
  }
  return bunCounts(output, await proc.exited);
}

function workerLimits(): QueueLimits & { stop(): void } {
  const wanted = Number(process.env.SVC_TEST_WORKERS);
  if (Number.isInteger(wanted) && wanted > 0) return { ...fixedWorkers(wanted), stop() {} };
  const room = watchCpuRoom(ROOM_IDLE_SHARE);
  return { workers: DEFAULT_WORKERS, most: MOST_WORKERS, hasRoom: room.hasRoom, pollMs: 1000, settleMs: ROOM_SETTLE_MS, stop: room.stop };
}

/** Every file (and pytest) through the queue; prints each as it ends, and at the end the files that failed, each failed test with its error. */
async function wholeSuite(): Promise<Counts> {
  const durations = readDurations(root);
  const jobs = scheduleOrder([...testFiles(root), PYTHON_JOB], durations);
  const limits = workerLimits();
  const most = limits.most > limits.workers ? `, up to ${limits.most} while the CPU has room` : "";
  process.stderr.write(`Running ${jobs.length - 1} test files and the Python tests, ${limits.workers} at a time${most}.\n`);
  let done = 0;
  let running = 0;
  let mostRunning = 0;
  const runs = await runQueue(jobs, limits, async (job): Promise<FileRun> => {
    mostRunning = Math.max(mostRunning, ++running);
    const run = job === PYTHON_JOB ? await pythonJob() : await runTestFile(root, job);
    done++;
    running--;
    process.stderr.write(`\n── ${run.file} (${done}/${jobs.length}, ${seconds(run.ms)}): ${run.passed} passed, ${run.failed} failed\n${run.output.trimEnd()}\n`);
    return run;
  }).finally(limits.stop);
  process.stderr.write(`\nAt most ${mostRunning} jobs ran at once.\n`);
  writeDurations(root, Object.fromEntries(runs.map((run) => [run.file, Math.round(run.ms)])));
  const failed = runs.filter((run) => run.failed > 0);
  if (failed.length > 0) {
    const digest = (run: FileRun) => failureDigest(run.output).map((text) => `\n    ${text.replaceAll("\n", "\n    ")}`).join("");
    process.stderr.write(`\nFiles with failures:\n${failed.map((run) => `  ${run.file}: ${run.failed} failed${digest(run)}`).join("\n")}\n`);
  }
  return runs.reduce((total, run) => ({ passed: total.passed + run.passed, failed: total.failed + run.failed }), { passed: 0, failed: 0 });
}

async function pythonJob(): Promise<FileRun> {
  const started = performance.now();
  let output = "";
  const counts = await runPythonTests(root, (text) => (output += text));
  return { file: PYTHON_JOB, output, ...counts, ms: performance.now() - started };
}

const setupStarted = performance.now();
const prepare = Bun.spawnSync(["bash", `${root}tests/setup/prepare.sh`], { stdout: "inherit", stderr: "inherit" });
if (prepare.exitCode !== 0) {
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const wholeRun = process.argv.length <= 2;
if (wholeRun) {
  try {
    process.env[PREBUILT_IMAGES_VARIABLE] = JSON.stringify(await buildTestImages());
  } catch (error) {
    console.error((error as Error).message);
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
}
const testsStarted = performance.now();
const total = !wholeRun ? await bunTestAsGiven(process.argv.slice(2)) : await wholeSuite();
console.log(`test time ${seconds(performance.now() - testsStarted)} (setup before it, not counted: ${seconds(testsStarted - setupStarted)})`);
console.log(`${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed > 0 ? 1 : 0);
