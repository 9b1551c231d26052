/**
 * The Python API's tests (clients/python/tests, pytest): installs the package into a fresh venv that
 * sees Debian's httpx, pytest and pytest-asyncio (tests/setup/apt-packages.txt), the way a user would
 * (`pip install ./clients/python`, no package index), then runs pytest there and reads its counts.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Debian's interpreter, which the apt packages belong to (not whichever python3 comes first on PATH). */
const PYTHON = "/usr/bin/python3";
/** A bound for a hung run; the Python tests take well under a minute. */
const TIMEOUT_MS = 20 * 60_000;

export interface Counts {
  passed: number;
  failed: number;
}

/** Runs `command`, its output (both streams) to `write`; resolves with its exit code. */
async function run(command: string[], cwd: string, write: (text: string) => void, env: Record<string, string | undefined> = process.env): Promise<number> {
  const proc = Bun.spawn(command, { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe", env });
  const timer = setTimeout(() => proc.kill("SIGTERM"), TIMEOUT_MS);
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) write(decoder.decode(chunk, { stream: true }));
  };
  await Promise.all([pump(proc.stdout), pump(proc.stderr)]);
  const code = await proc.exited;
  clearTimeout(timer);
  return code;
}

async function step(command: string[], cwd: string, write: (text: string) => void): Promise<boolean> {
  const code = await run(command, cwd, write);
  if (code !== 0) write(`${command.join(" ")} failed with exit code ${code}\n`);
  return code === 0;
}

/**
 * The counts of a pytest run from its JUnit XML report (undefined when it wrote none) and exit code.
 * Skipped tests count as failed (the suite has none on purpose); a non-zero exit without a failed
 * test, such as 5 ("no tests collected") or a crash, counts as one failure.
 */
export function pytestCounts(report: string | undefined, exitCode: number): Counts {
  const suite = report?.match(/<testsuite\b[^>]*>/)?.[0] ?? "";
  const attribute = (name: string) => Number(suite.match(new RegExp(`\\b${name}="(\\d+)"`))?.[1] ?? 0);
  const failed = attribute("failures") + attribute("errors") + attribute("skipped");
  const counts = { passed: attribute("tests") - failed, failed };
  return exitCode !== 0 && counts.failed === 0 ? { ...counts, failed: 1 } : counts;
}

/** Runs the Python tests; their output goes to `write` (the runner prints it when they end). */
export async function runPythonTests(root: string, write: (text: string) => void = (text) => process.stderr.write(text)): Promise<Counts> {
  const work = mkdtempSync(join(tmpdir(), "svc-python-tests-"));
  const pkg = join(root, "clients/python");
  try {
    const venv = join(work, "venv");
    // Installed from a copy without earlier build output, which setuptools would otherwise reuse.
    const source = join(work, "python");
    cpSync(pkg, source, { recursive: true, filter: (path) => !/(^|\/)(build|__pycache__|[^/]*\.egg-info)$/.test(path) });
    if (!(await step([PYTHON, "-m", "venv", "--system-site-packages", venv], root, write))) return { passed: 0, failed: 1 };
    if (!(await step([join(venv, "bin/pip"), "install", "--quiet", "--no-index", "--no-build-isolation", source], root, write))) return { passed: 0, failed: 1 };
    const report = join(work, "pytest.xml");
    const command = [join(venv, "bin/python"), "-m", "pytest", "-p", "no:cacheprovider", "-q", `--junitxml=${report}`, "tests"];
    const code = await run(command, pkg, write, { ...process.env, PYTHONDONTWRITEBYTECODE: "1" });
    return pytestCounts(existsSync(report) ? readFileSync(report, "utf8") : undefined, code);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
