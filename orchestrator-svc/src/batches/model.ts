import { t } from "elysia";
import { BatchStatus } from "@svc/contracts";
import { BATCH_WORDS } from "../workloads/lookup";
import { refParams, removeQuery } from "../workloads/model";

export const BatchListQuery = t.Object({
  status: t.Optional(BatchStatus),
  all: t.Optional(t.Boolean({ description: "The whole history; without it (and without status), live jobs and those that ended in the last 24 hours." })),
});

export const BatchRefParams = refParams(BATCH_WORDS);
export const BatchRemoveQuery = removeQuery(BATCH_WORDS);
