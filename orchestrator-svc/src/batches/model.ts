import { t } from "elysia";
import { BatchStatus } from "@svc/contracts";

export const BatchListQuery = t.Object({
  status: t.Optional(BatchStatus),
  all: t.Optional(t.Boolean({ description: "The whole history; without it (and without status), live jobs and those that ended in the last 24 hours." })),
});

export const BatchRefParams = t.Object({
  ref: t.String({ minLength: 1, maxLength: 64, description: "Batch job id, a unique prefix of it, or its name." }),
});

export const BatchRemoveQuery = t.Object({
  force: t.Optional(t.Boolean({ description: "Stop a live job first." })),
});
