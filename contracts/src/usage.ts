import { Type, type Static } from "@sinclair/typebox";
import { literalUnion } from "./services";

export const USAGE_GROUPINGS = ["key", "model", "service"] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

export const UsageQuery = Type.Object({
  since: Type.Optional(Type.String({ pattern: "^[1-9][0-9]{0,5}[mhdw]$", description: "How far back: `7d` (default), `12h`, `90m`, `2w`." })),
  by: Type.Optional(literalUnion(USAGE_GROUPINGS, { description: "Group by API key (default), model or service." })),
});
export type UsageQuery = Static<typeof UsageQuery>;

const Counts = {
  requests: Type.Integer(),
  errors: Type.Integer({ description: "Answers with a 4xx or 5xx status." }),
  promptTokens: Type.Integer(),
  completionTokens: Type.Integer(),
};

export const UsageGroup = Type.Object({ group: Type.String({ description: "The key's name (`svc-token`, `anonymous`), the repo id or the service's name." }), ...Counts, avgLatencyMs: Type.Number() }, { $id: "UsageGroup" });
export const UsageDay = Type.Object({ day: Type.String({ description: "YYYY-MM-DD (UTC)." }), ...Counts }, { $id: "UsageDay" });

export const ServiceTime = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    model: Type.String(),
    profile: Type.String(),
    engine: Type.String(),
    status: Type.String(),
    runningSeconds: Type.Number({ description: "How long the engine has run it, over all its runs (from STARTING until it stopped)." }),
    gpuHours: Type.Union([Type.Number(), Type.Null()], { description: "Slurm: GPUs allocated (GRES) × running hours; null on Docker." }),
  },
  { $id: "ServiceTime" },
);
export type ServiceTime = Static<typeof ServiceTime>;

export const UsageReport = Type.Object(
  {
    since: Type.String({ format: "date-time" }),
    by: literalUnion(USAGE_GROUPINGS),
    retentionDays: Type.Integer({ description: "Usage older than this is deleted (SVC_USAGE_RETENTION_DAYS)." }),
    totals: Type.Object(Counts),
    groups: Type.Array(UsageGroup),
    days: Type.Array(UsageDay),
    services: Type.Array(ServiceTime),
  },
  { $id: "UsageReport" },
);
export type UsageReport = Static<typeof UsageReport>;
