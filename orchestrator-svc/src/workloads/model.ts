import { t } from "elysia";
import { capitalised, type WorkloadWords } from "./lookup";

/** The `:ref` of a route on one workload. */
export const refParams = (words: WorkloadWords) =>
  t.Object({
    ref: t.String({ minLength: 1, maxLength: 64, description: `${capitalised(words)} id, a unique prefix of it, or its name.` }),
  });

/** The query of `DELETE /api/<workloads>/:ref`. */
export const removeQuery = (words: WorkloadWords) =>
  t.Object({
    force: t.Optional(t.Boolean({ description: `Stop a live ${words.one} first.` })),
  });
