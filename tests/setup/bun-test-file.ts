/**
 * One test file in its own `bun test` process, its output (both streams, as they came) kept to be
 * printed whole when it ends, its counts read from bun's summary.
 */
import { TEST_FILE_VARIABLE } from "@svc/testing/test-file-label";
import { killTree, removeContainersOf } from "./process-tree";

export interface Counts {
  passed: number;
  failed: number;
}

export interface FileRun extends Counts {
  file: string;
  output: string;
  ms: number;
}

/** A bound for a hung file (the longest, a soak, takes minutes). */
const FILE_TIMEOUT_MS = 20 * 60_000;
const OUTPUT_GRACE_MS = 2000;

/** bun's closing " N pass" / " N fail" lines; a run that ended otherwise (crash, no summary) counts one failure. */
export function bunCounts(output: string, exitCode: number): Counts {
  const last = (word: string) => [...output.matchAll(new RegExp(`^\\s*(\\d+) ${word}$`, "gm"))].at(-1)?.[1];
  const counts = { passed: Number(last("pass") ?? 0), failed: Number(last("fail") ?? 0) };
  return exitCode !== 0 && counts.failed === 0 ? { ...counts, failed: 1 } : counts;
}

async function collect(stream: ReadableStream<Uint8Array>, add: (text: string) => void) {
  const decoder = new TextDecoder();
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) add(decoder.decode(chunk, { stream: true }));
}

export async function runTestFile(root: string, file: string): Promise<FileRun> {
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, "test", "--timeout", "60000", `./${file}`], {
    cwd: root,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, FORCE_COLOR: "0", [TEST_FILE_VARIABLE]: file },
  });
  let output = "";
  const add = (text: string) => (output += text);
  const timer = setTimeout(() => {
    add(`\n${file} ran past ${FILE_TIMEOUT_MS / 60_000} minutes and was stopped, with the processes and containers it started.\n`);
    killTree(proc.pid);
    removeContainersOf(file);
  }, FILE_TIMEOUT_MS);
  const read = Promise.all([collect(proc.stdout, add), collect(proc.stderr, add)]);
  const code = await proc.exited;
  clearTimeout(timer);
  // A process the file left behind may hold the pipes open: what it writes after a grace period is not waited for.
  await Promise.race([read, Bun.sleep(OUTPUT_GRACE_MS)]);
  return { file, output, ...bunCounts(output, code), ms: performance.now() - started };
}
