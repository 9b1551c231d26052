import { conflict } from "@svc/contracts";
import type { WorkloadRow } from "../db/workload-store";
import type { Engine, LaunchSpec, Submitted } from "../engines/engine";
import { engineFailure } from "../services/engine-failure";
import { capitalised, type WorkloadWords } from "./lookup";

interface Transitions {
  transition(id: string, to: "STOPPED" | "STOPPING", reason: string): unknown;
}

/**
 * `stop` of a service or a batch job: one the engine has not accepted yet is STOPPED at once;
 * otherwise it is STOPPING until the reconciler sees the engine stopped it.
 */
export async function stopWorkload(
  row: WorkloadRow,
  how: {
    live: boolean;
    words: WorkloadWords;
    store: Transitions;
    /** Asked only when the engine has something to stop. */
    engine(): Engine;
    /** Runs the reconciler's next tick now. */
    wake(): void;
  },
): Promise<void> {
  if (!how.live) throw conflict(`${capitalised(how.words)} ${row.id} is already ${row.status}; nothing to stop.`);
  if (!row.handle) {
    how.store.transition(row.id, "STOPPED", "stopped by its creator before the engine accepted it");
    return;
  }
  how.store.transition(row.id, "STOPPING", "stop requested by its creator");
  try {
    await how.engine().stop(row.handle);
  } catch (error) {
    throw engineFailure(error, `The engine did not stop the ${how.words.one}`);
  } finally {
    how.wake();
  }
}

/**
 * `rm` of a service or a batch job: a live one only with `force` (stopped first), then the engine
 * frees what it keeps (the stopped container), then the record goes. Returns the row as it was last.
 */
export async function removeWorkload<Row extends WorkloadRow>(
  row: Row,
  how: {
    force: boolean;
    live: boolean;
    words: WorkloadWords;
    stop(id: string): Promise<unknown>;
    store: { get(id: string): Row | undefined; remove(id: string): void };
    engine: Engine;
  },
): Promise<Row> {
  if (how.live) {
    if (!how.force) throw conflict(`${capitalised(how.words)} ${row.id} is ${row.status}: stop it first ('${how.words.cli} stop ${row.id.slice(0, 13)}'), or remove it with --force.`);
    if (row.status !== "STOPPING") await how.stop(row.id);
    row = how.store.get(row.id)!;
  }
  if (row.handle) {
    await how.engine.release(row.handle).catch((error) => {
      throw engineFailure(error, `The engine did not remove the ${how.words.one}'s container`);
    });
  }
  how.store.remove(row.id);
  return row;
}

/**
 * Hands a workload to the engine and records what it answered (`recorded`: the handle, and for a
 * service its address); one stopped or removed while the engine was still accepting it is stopped
 * again, and a refusal is recorded as FAILED and reported. Returns the engine's notes.
 */
export async function submitWorkload<Patch>(
  engine: Engine,
  spec: LaunchSpec,
  how: {
    words: WorkloadWords;
    store: { patch(id: string, patch: Patch): void; get(id: string): { status: string } | undefined; transition(id: string, to: "FAILED", reason: string): unknown };
    live(status: string): boolean;
    recorded(submitted: Submitted): Patch;
    /** Marks the submit as under way while it runs (the reconciler leaves such a workload alone). */
    during(id: string, submit: () => Promise<string[]>): Promise<string[]>;
    wake(): void;
  },
): Promise<string[]> {
  const id = spec.serviceId;
  try {
    return await how.during(id, async () => {
      const submitted = await engine.submit(spec);
      how.store.patch(id, how.recorded(submitted));
      // Stopped (or removed) while the engine was still accepting it: do not leave it running.
      const now = how.store.get(id)?.status;
      if (now === undefined || now === "STOPPING" || !how.live(now)) await engine.stop(submitted.handle);
      return submitted.notes;
    });
  } catch (error) {
    const failure = engineFailure(error, `${engine.kind} did not start the ${how.words.one}`);
    how.store.transition(id, "FAILED", failure.message);
    throw failure;
  } finally {
    how.wake();
  }
}
