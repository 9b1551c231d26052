/**
 * Which test files the suite has, and in which order workers take them: the files that mostly wait
 * on wall-clock time first (a soak, Slurm time limits, a long stream), then the longest as the last
 * run measured them (their durations are kept in node_modules/.cache; a new clone, which has no such
 * cache, goes by the durations checked in beside this file), then the end-to-end folders, so that no
 * long file starts last and keeps one worker busy alone at the end.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const LONG_WAITING_FILES = ["tests/app/renewal-soak.test.ts", "tests/app/batch-slurm-time-limit.test.ts", "tests/app/batch-slurm.test.ts", "tests/app/gateway-limits.test.ts", "tests/app/v1-rate-limit-retries.test.ts"];

/** Bun's own test file names, outside node_modules and hidden folders. */
const TEST_FILE = new Bun.Glob("**/*{.test,_test,.spec,_spec}.{ts,tsx,js,jsx}");
const END_TO_END = /^(tests\/|runtimes\/[^/]+\/test\/.*\.(container|bare)\.test)/;

export function testFiles(root: string): string[] {
  const files: string[] = [];
  for (const file of TEST_FILE.scanSync({ cwd: root })) {
    if (!file.split("/").some((part) => part === "node_modules" || part.startsWith("."))) files.push(file);
  }
  return files.sort();
}

export type Durations = Record<string, number>;

const durationsFile = (root: string) => join(root, "node_modules/.cache/svc-tests/durations.json");
/** A clean run's durations on a 2-core machine like CI's, for a clone that has not run the suite yet. */
const checkedInDurationsFile = (root: string) => join(root, "tests/setup/durations.json");

function readDurationsFile(path: string): Durations {
  try {
    return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Durations) : {};
  } catch {
    return {};
  }
}

/** This checkout's last run's durations, over the checked-in ones (which cover files it has not timed yet). */
export function readDurations(root: string): Durations {
  return { ...readDurationsFile(checkedInDurationsFile(root)), ...readDurationsFile(durationsFile(root)) };
}

export function writeDurations(root: string, durations: Durations) {
  mkdirSync(dirname(durationsFile(root)), { recursive: true });
  writeFileSync(durationsFile(root), JSON.stringify(durations, null, 1));
}

/** The order workers take the files in (see the top of this file). */
export function scheduleOrder(files: string[], durations: Durations): string[] {
  const rank = (file: string) => {
    const waiting = LONG_WAITING_FILES.indexOf(file);
    if (waiting >= 0) return [0, waiting];
    if (durations[file] !== undefined) return [1, -durations[file]];
    return [END_TO_END.test(file) ? 2 : 3, 0];
  };
  return [...files].sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    return ra[0] - rb[0] || ra[1] - rb[1] || a.localeCompare(b);
  });
}
