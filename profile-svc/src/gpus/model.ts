import { t } from "elysia";

/** `?refresh=true`: read the cluster again instead of answering the last reading. */
export const GpusQuery = t.Object({
  refresh: t.Optional(t.Boolean({ description: "Read the partitions and GPUs from the cluster (or this machine) again, instead of the last reading." })),
});
