import type { TSchema } from "elysia";
import { operation } from "@svc/platform";
import type { WorkloadWords } from "./lookup";

/** What the engine's answers can say, as `services/engine-failure.ts` maps them. */
export const ENGINE_ERRORS = {
  400: "The engine refused the job (e.g. Slurm's `invalid partition specified`).",
  502: "The engine (Docker Engine, Slurm over SSH) answered with an error.",
  503: "The engine, or another part of svc, is not answering.",
} as const;

/** The engine's answers when it is only asked about a workload (it refuses nothing). */
export const ENGINE_REACH_ERRORS = { 502: ENGINE_ERRORS[502], 503: ENGINE_ERRORS[503] } as const;

/**
 * The API documentation of the routes every kind of workload has, in its words: `field` is where a
 * run's answer holds the new record.
 */
export function workloadDocs(words: WorkloadWords & { field: string; tags: string[] }) {
  const noSuch = `No ${words.one} has that id, id prefix or name (\`not_found\`).`;
  const ambiguous = `The id prefix matches several ${words.many} (\`ambiguous_id\`)`;
  return {
    /** `POST /api/<workloads>`: 201 with the new record, 200 for a dry run; `also` says why else one is refused (400) and what else conflicts (409). */
    run<const Answer extends TSchema>(operationId: string, answer: Answer, also: { refused: string; conflicts?: string; adapter?: string; missing?: string }) {
      return operation(operationId, {
        summary: `Run a ${words.one} (${words.cli} run); dryRun only renders the start-up script`,
        description: `201 with the new ${words.one}'s record; 200 for a dry run (\`${words.field}\` is null).`,
        tags: words.tags,
        ok: { 200: answer, 201: answer },
        errors: {
          400: `A value is not allowed (the message names the option and what it accepts), ${also.adapter ?? "the model is a LoRA adapter (`model_is_adapter`: the message names its base and how to serve it there)"}, ${also.refused}, or the engine refused the job.`,
          404: `The profile, model or revision is not registered (\`not_found\`, \`model_not_found\`, \`revision_not_found\`)${also.missing ? `, ${also.missing}` : ""}.`,
          409: `A live ${words.one} already has that name (\`conflict\`)${also.conflicts ? `, ${also.conflicts}` : ""}.`,
          ...ENGINE_REACH_ERRORS,
        },
      });
    },
    /**
     * A route on one workload (`/:ref…`): 404 when none has the ref (`missing`: what else), 409 when
     * its prefix matches several (`conflicts`: what else makes it 409), and the engine's answers given.
     */
    onRef<const Ok extends Record<number, TSchema>, const Engine extends Partial<Record<400 | 502 | 503, string>> = {}>(
      operationId: string,
      spec: { summary: string; ok: Ok; conflicts?: string; missing?: string; engine?: Engine },
    ) {
      return operation(operationId, {
        summary: spec.summary,
        tags: words.tags,
        ok: spec.ok,
        errors: {
          ...(spec.engine ?? ({} as Engine)),
          404: spec.missing ? `${noSuch} ${spec.missing}` : noSuch,
          409: spec.conflicts ? `${ambiguous}, ${spec.conflicts} (\`conflict\`).` : `${ambiguous}.`,
        },
      });
    },
  };
}

/** 201 when the run made a record, 200 for a dry run. */
export function runStatus(set: { status?: number | string }, made: unknown) {
  set.status = made ? 201 : 200;
}
