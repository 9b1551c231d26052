/** What the figures of `bench/run-all.ts` share: a row of the table, medians, hyperfine, Debian packages. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";

export interface Row {
  figure: string;
  /** svc's side, e.g. "12.0 ms". */
  svc: string;
  /** The other side, e.g. "docker ps 14.1 ms". */
  comparison: string;
  ratio: number;
  /** e.g. "≤ 1.00". */
  goal: string;
  met: boolean;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const ms = (value: number) => `${value.toFixed(1)} ms`;
export const load = () => loadavg().map((v) => v.toFixed(2)).join(" ");

/** A ratio row where the svc side should be at most `goal` times the comparison (times, lower is better). */
export function atMost(figure: string, svcMs: number, label: string, otherMs: number, goal: number, format = ms): Row {
  const ratio = svcMs / otherMs;
  return { figure, svc: format(svcMs), comparison: `${label} ${format(otherMs)}`, ratio, goal: `≤ ${goal.toFixed(2)}`, met: ratio <= goal };
}

/** A ratio row where the svc side should be at least `goal` times the comparison (rates, higher is better). */
export function atLeast(figure: string, svcValue: number, label: string, otherValue: number, goal: number, unit: string): Row {
  const ratio = svcValue / otherValue;
  return { figure, svc: `${svcValue.toFixed(1)} ${unit}`, comparison: `${label} ${otherValue.toFixed(1)} ${unit}`, ratio, goal: `≥ ${goal.toFixed(2)}`, met: ratio >= goal };
}

/** Installs Debian packages when `binary` is missing (as tests/setup does): the bench only, never the app. */
export function aptInstall(binary: string, packages: string[]) {
  if (Bun.which(binary)) return;
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const command of [["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", ...packages]]) {
    const result = Bun.spawnSync(command, { env, stdout: "pipe", stderr: "pipe" });
    if (result.exitCode !== 0) throw new Error(`${command.join(" ")}: ${result.stderr}`);
  }
}

/**
 * Times shell commands with hyperfine, returning each median in ms. The commands run in one hyperfine
 * call so both sides see the same machine; with `rounds` > 1 that call is repeated, `runs` split
 * among the rounds, and each median taken over all of a command's runs: hyperfine times one command
 * after the other, so on a shared machine a burst of other work would otherwise fall on one side only.
 */
export function hyperfine(commands: string[], env: Record<string, string | undefined> = process.env, runs = 40, rounds = 1): number[] {
  aptInstall("hyperfine", ["hyperfine"]);
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-hf-"));
  try {
    const out = join(dir, "out.json");
    const times: number[][] = commands.map(() => []);
    for (let round = 0; round < rounds; round++) {
      const warmup = round === 0 ? "5" : "2";
      const result = Bun.spawnSync(["hyperfine", "-N", "--warmup", warmup, "--runs", String(Math.ceil(runs / rounds)), "--export-json", out, ...commands], { env, stdout: "pipe", stderr: "pipe" });
      if (result.exitCode !== 0) throw new Error(`hyperfine: ${result.stderr}`);
      const report = JSON.parse(readFileSync(out, "utf8")) as { results: Array<{ times: number[] }> };
      report.results.forEach((r, i) => times[i].push(...r.times));
    }
    return times.map((t) => median(t) * 1000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Polls `check` every `stepMs` until it is true; the time it first was (performance.now()). */
export async function until(check: () => Promise<boolean>, limitMs = 120_000, stepMs = 2): Promise<number> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return performance.now();
    await Bun.sleep(stepMs);
  }
  throw new Error("timed out");
}

/** What `wrk` measured: requests/s, and how many requests were sent. */
export interface Load {
  rate: number;
  requests: number;
}

/** `text` as a Lua long string, taken as written (JSON's escapes are not all Lua's). */
function luaString(text: string): string {
  let level = "";
  while (text.includes(`]${level}]`)) level += "=";
  // A newline right after the opening bracket would be dropped by Lua: the text starts on the next line.
  return `[${level}[\n${text}]${level}]`;
}

/**
 * Requests/s of `url` (GET unless `init` says otherwise) with `concurrency` requests in flight for
 * `seconds`, sent by wrk (Debian's, installed here for the bench only) from one thread: a load
 * generator in C, so the processes measured get the machine's CPU rather than a JavaScript client.
 */
export function throughput(url: string, seconds: number, concurrency = 16, init: { method?: string; body?: string; contentType?: string; headers?: Record<string, string> } = {}): Load {
  aptInstall("wrk", ["wrk"]);
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-wrk-"));
  try {
    const script = join(dir, "request.lua");
    const lua = [`wrk.method = ${luaString(init.method ?? "GET")}`];
    if (init.body !== undefined) lua.push(`wrk.body = ${luaString(init.body)}`, `wrk.headers["Content-Type"] = ${luaString(init.contentType ?? "application/json")}`);
    for (const [name, value] of Object.entries(init.headers ?? {})) lua.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`);
    // A non-2xx answer would make a fast error look like a fast proxy.
    lua.push("done = function(summary, latency, requests) io.write(string.format('\\nsvc-bench %d %d\\n', summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout)) end");
    writeFileSync(script, lua.join("\n"));
    const result = Bun.spawnSync(["wrk", "-t1", `-c${concurrency}`, `-d${seconds}s`, "-s", script, url], { stdout: "pipe", stderr: "pipe" });
    const out = result.stdout.toString();
    const rate = /Requests\/sec:\s+([\d.]+)/.exec(out);
    const summary = /svc-bench (\d+) (\d+)/.exec(out);
    const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
    if (result.exitCode !== 0 || !rate || !summary) throw new Error(`wrk ${url}: ${result.stderr}${out}`);
    if (Number(summary[2]) > 0 || non2xx) throw new Error(`wrk ${url}: ${non2xx?.[1] ?? summary[2]} requests failed`);
    if (Number(summary[1]) === 0) throw new Error(`wrk ${url}: no request was answered in ${seconds} s`);
    return { rate: Number(rate[1]), requests: Number(summary[1]) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
