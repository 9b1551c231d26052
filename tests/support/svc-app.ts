import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { freePort as freePortOn } from "@svc/platform/net";
export { retryWhilePortTaken } from "@svc/platform/net";
import { readyUrl } from "./ready-url";
import { ContractViolation } from "./api-document";
import { appToken, unwatchApp, watchApp } from "./contract-check";

export const REPO_ROOT = new URL("../..", import.meta.url).pathname;
export const SVC = join(REPO_ROOT, "svc");

/** A free TCP port on loopback now, for a test that needs a port nothing listens on. */
export const freePort = () => freePortOn("127.0.0.1");

export function tempHome(prefix = "svc-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Runs the CLI to completion. */
export async function runSvc(args: string[], env: Record<string, string | undefined> = {}) {
  const proc = Bun.spawn([SVC, ...args], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

export interface RunningSvc {
  url: string;
  port: number;
  home: string;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  output(): string;
  /** Resolves when the output contains `text` (or rejects after `ms`). */
  waitForOutput(text: string | RegExp, ms?: number): Promise<void>;
  /** After ready every component has reported its port. */
  lock(): { pid: number; components: Record<string, { pid: number | null; port: number }> };
  stop(signal?: NodeJS.Signals): Promise<number>;
  cleanup(): Promise<void>;
}

/**
 * Starts `./svc start` on a fresh home folder, on `port` or else port 0 (the gateway binds a port
 * of the kernel's choice, which the ready line names); resolves once it printed that it is ready. From then on every answer a test fetches from it is checked against the OpenAPI document
 * it serves (contract-check.ts).
 */
export async function startSvc(
  options: { env?: Record<string, string>; args?: string[]; home?: string; port?: number; /** e.g. ["setsid"] */ wrapper?: string[] } = {},
): Promise<RunningSvc> {
  const home = options.home ?? tempHome();
  const proc = Bun.spawn([...(options.wrapper ?? []), SVC, "start", "--port", String(options.port ?? 0), ...(options.args ?? [])], {
    env: { ...process.env, SVC_HOME_DIR: home, SVC_HOST: "127.0.0.1", SVC_DEBUG: "true", ...options.env },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  let text = "";
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true });
  };
  const drained = Promise.all([pump(proc.stdout), pump(proc.stderr)]);

  const running: RunningSvc = {
    url: "",
    port: 0,
    home,
    proc,
    output: () => text,
    async waitForOutput(wanted, ms = 20_000) {
      const seen = () => (typeof wanted === "string" ? text.includes(wanted) : wanted.test(text));
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        if (seen()) return;
        if (proc.exitCode !== null) {
          await drained;
          if (seen()) return;
          break;
        }
        await Bun.sleep(25);
      }
      throw new Error(`svc start did not print ${wanted} (exit ${proc.exitCode}); output:\n${text}`);
    },
    lock: () => JSON.parse(readFileSync(join(home, "svc.lock"), "utf8")),
    async stop(signal = "SIGTERM") {
      if (proc.exitCode === null) proc.kill(signal);
      return proc.exited;
    },
    async cleanup() {
      unwatchApp(running.url);
      await running.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
  await running.waitForOutput("svc is ready at");
  running.url = readyUrl(text);
  running.port = Number(new URL(running.url).port);
  await watchApp(running.url, appToken(home, options.env, options.args));
  return running;
}

/** How often `eventually` looks by default: soon at first, then less often (most waits are seconds long, and each look is a request through the app). */
const FIRST_LOOK_MS = 20;
const MOST_BETWEEN_LOOKS_MS = 250;

/** Polls `check` until it returns true (or throws after `ms`): every `everyMs`, or by default 20 ms after the first look and growing to 250 ms. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000, what = "condition", everyMs?: number): Promise<void> {
  const deadline = Date.now() + ms;
  let pause = everyMs ?? FIRST_LOOK_MS;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      // An answer the API document does not describe is a failure now, not a "not yet".
      if (error instanceof ContractViolation) throw error;
    }
    if (Date.now() >= deadline) break;
    await Bun.sleep(Math.min(pause, deadline - Date.now()));
    if (everyMs === undefined) pause = Math.min(MOST_BETWEEN_LOOKS_MS, pause * 1.5);
  }
  throw new Error(`timed out waiting for ${what}`);
}

export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
