import { randomInt } from "node:crypto";
import { currentUserName } from "@svc/platform/process";
import type { EngineKind } from "@svc/contracts";

interface Identity<Task extends string, Status extends string> {
  id: string;
  name: string;
  task: Task;
  model: string;
  revision: string;
  profile: string;
  engine: EngineKind;
  status: Status;
}

/** What names a workload (a service, a batch job) and says where and how it runs: the first fields of every view of one. */
export function identityOf<Task extends string, Status extends string>(row: Identity<Task, Status>): Identity<Task, Status> {
  return { id: row.id, name: row.name, task: row.task, model: row.model, revision: row.revision, profile: row.profile, engine: row.engine, status: row.status };
}

/** A name no live workload of the kind has (`svc-12345`, `batch-12345`), for one run without --name. */
export function unusedName(prefix: string, live: Array<{ name: string }>): string {
  const taken = new Set(live.map((row) => row.name));
  for (;;) {
    const name = `${prefix}${randomInt(10_000, 100_000)}`;
    if (!taken.has(name)) return name;
  }
}

/** The first record of a workload just planned: SUBMITTED, not yet accepted by the engine, made now by this user. */
export function submittedRow<Task extends string>(fields: { id: string; name: string; task: Task; model: string; revision: string; profile: string; engine: EngineKind; spec: unknown }) {
  const now = new Date().toISOString();
  return { ...fields, spec: JSON.stringify(fields.spec), status: "SUBMITTED" as const, reason: null, handle: null, createdBy: currentUserName(), createdAt: now, updatedAt: now };
}
