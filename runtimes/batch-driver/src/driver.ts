import { existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { DriverOptions } from "./args";
import { checkParams, markerOutput, runFolderItem } from "./folder-tasks";
import { listInputs } from "./input-folder";
import { JobState } from "./job-state";
import { readRequests, readResults, runBatchRequest, type BatchRequest } from "./openai-batch";
import { InputFailure, RuntimeUnreachable } from "./runtime-client";
import { RuntimeChild } from "./runtime-child";

const SCAN_EVERY_MS = 1000;
/** An input whose requests got no answer this often (the runtime healthy in between) is recorded as failed. */
const UNANSWERED_ATTEMPTS = 3;

export type DriverOutcome = "finished" | "stopped";

/**
 * Runs a batch job: starts the runtime (or uses the one given), keeps up to `concurrency`
 * requests in flight over every input without an output, writes each output atomically, records
 * failures with their reason, picks up inputs that appear meanwhile, and ends once all are done
 * and nothing new came for the idle timeout. `signal` stops it early (outputs in flight are dropped).
 */
export async function runDriver(options: DriverOptions, signal: AbortSignal, log: (line: string) => void = console.log): Promise<DriverOutcome> {
  const problem = checkParams(options.task, options.params);
  if (problem) throw new Error(problem);
  const state = new JobState(options.stateDir, options.progressFile, options.retryFailed);
  rmSync(state.temporaryDir, { recursive: true, force: true }); // leftovers of a run that was killed
  mkdirSync(state.temporaryDir, { recursive: true });
  state.flush();
  const child = options.runtimeUrl ? RuntimeChild.external(options.runtimeUrl, options.runtimeKey) : RuntimeChild.start(options.runtime, options.apiKeyVariable);
  try {
    await Promise.race([child.ready(options.model), new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("stopped")), { once: true }))]).catch((error) => {
      if (signal.aborted) return;
      throw error;
    });
    if (signal.aborted) return stopped(state);
    state.setPhase("running");
    log(`svc batch: the runtime is ready; ${options.task}${options.model ? ` with ${options.model}` : ""}, up to ${options.concurrency} requests at once`);

    const queue: string[] = [];
    const unanswered = new Map<string, number>();
    const requests = new Map<string, BatchRequest>();
    /** Takes new inputs; counts a file still being written (changed in the last seconds) as something new, to be taken later. */
    const scan = (): number => {
      let added = 0;
      if (options.task === "openai") return 0;
      const { inputs, settling } = listInputs(options.inputDir!, options.extensions, options.outputDir);
      for (const item of inputs) {
        if (state.statuses.has(item)) continue;
        added++;
        if (state.add(item, existsSync(markerOutput(options.task, options.outputDir!, item))) === "pending") queue.push(item);
      }
      return added + settling;
    };
    if (options.task === "openai") {
      mkdirSync(dirname(options.output!), { recursive: true });
      const { done, failed } = readResults(options.output!, state.temporaryDir, options.retryFailed);
      for (const id of Object.keys(state.failures)) if (!failed.has(id)) delete state.failures[id];
      for (const [id, reason] of failed) state.failures[id] ??= { reason, at: new Date().toISOString() };
      for (const request of readRequests(options.input!)) {
        requests.set(request.customId, request);
        if (state.add(request.customId, done.has(request.customId)) === "pending") queue.push(request.customId);
      }
    } else mkdirSync(options.outputDir!, { recursive: true });

    const runItem = async (item: string) => {
      state.started(item);
      try {
        if (options.task === "openai") {
          const failure = await runBatchRequest(child.client, requests.get(item)!, options.output!);
          if (failure) state.failed(item, failure);
          else state.succeeded(item);
        } else {
          await runFolderItem(options.task, child.client, options.inputDir!, options.outputDir!, item, options.params, state.temporaryDir);
          state.succeeded(item);
        }
      } catch (error) {
        if (signal.aborted) return;
        if (!(error instanceof InputFailure) && child.exitCode !== undefined && child.exitCode !== null) throw error;
        // No answer (e.g. the runtime is being ended along with the job): not the input's fault, so it is not recorded.
        if (error instanceof RuntimeUnreachable && (unanswered.set(item, (unanswered.get(item) ?? 0) + 1).get(item) ?? 0) < UNANSWERED_ATTEMPTS) {
          state.requeued(item);
          queue.unshift(item);
          if (!(await child.client.healthy()) && !signal.aborted) throw error;
          return;
        }
        state.failed(item, (error as Error).message);
        log(`svc batch: ${item} failed: ${(error as Error).message}`);
      }
    };

    scan();
    let lastActivity = Date.now();
    let lastScan = Date.now();
    const inFlight = new Set<Promise<void>>();
    let fatal: Error | undefined;
    while (!signal.aborted && !fatal) {
      if (child.exitCode !== undefined && child.exitCode !== null) throw new Error(`the runtime exited with code ${child.exitCode}`);
      if (Date.now() - lastScan >= SCAN_EVERY_MS) {
        if (scan() > 0) lastActivity = Date.now();
        lastScan = Date.now();
      }
      while (inFlight.size < options.concurrency && queue.length > 0) {
        const running: Promise<void> = runItem(queue.shift()!)
          .catch((error) => {
            fatal = error as Error;
          })
          .finally(() => {
            inFlight.delete(running);
            lastActivity = Date.now();
          });
        inFlight.add(running);
      }
      if (inFlight.size === 0 && queue.length === 0) {
        if (options.task === "openai") break;
        state.setPhase("idle");
        if (Date.now() - lastActivity >= options.idleTimeoutMs) {
          if (scan() === 0) break;
          lastActivity = Date.now();
        }
      } else state.setPhase("running");
      await Promise.race([...inFlight, Bun.sleep(inFlight.size > 0 ? 1000 : 250)]);
    }
    if (fatal) throw fatal;
    if (signal.aborted) return stopped(state);
    const { done, failed, total } = state.progress();
    state.setPhase("finished", `${done} of ${total} done, ${failed} failed`);
    state.flush();
    log(`svc batch: finished: ${done} of ${total} done, ${failed} failed`);
    return "finished";
  } catch (error) {
    state.setPhase("failed", (error as Error).message);
    state.flush();
    throw error;
  } finally {
    await child.stop();
  }
}

function stopped(state: JobState): DriverOutcome {
  state.setPhase("stopped");
  state.flush();
  return "stopped";
}

export const stateFiles = (stateDir: string) => ({ state: join(stateDir, "state.json"), progress: join(stateDir, "progress.json") });
