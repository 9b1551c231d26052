import { Type, type Static } from "@sinclair/typebox";
import { KeyLimits } from "./keys";
import { literalUnion } from "./services";

export const USAGE_GROUPINGS = ["key", "model", "service"] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

/** The tokens-per-hour series: the last 24 hours or the last 7 days. */
export const USAGE_HOURLY_WINDOWS = ["day", "week"] as const;
export type UsageHourlyWindow = (typeof USAGE_HOURLY_WINDOWS)[number];
/** How many hours each window shows, the current one included. */
export const USAGE_WINDOW_HOURS: Record<UsageHourlyWindow, number> = { day: 24, week: 168 };

export const UsageQuery = Type.Object({
  since: Type.Optional(Type.String({ pattern: "^[1-9][0-9]{0,5}[mhdw]$", description: "How far back: `7d` (default), `12h`, `90m`, `2w`." })),
  by: Type.Optional(literalUnion(USAGE_GROUPINGS, { description: "Group by API key (default), model or service." })),
  hours: Type.Optional(literalUnion(USAGE_HOURLY_WINDOWS, { description: "The tokens-per-hour series over the last 24 hours (`day`, default) or 7 days (`week`)." })),
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

/** The kinds of caller usage is recorded for. */
export const USAGE_CALLER_KINDS = ["key", "removed", "token", "anonymous"] as const;
export type UsageCallerKind = (typeof USAGE_CALLER_KINDS)[number];

export const UsageSpent = Type.Object(
  {
    requests: Type.Integer({ description: "Requests answered (429 refusals not counted)." }),
    tokens: Type.Integer({ description: "Prompt + completion tokens." }),
  },
  { $id: "UsageSpent" },
);
export type UsageSpent = Static<typeof UsageSpent>;

/** What a caller spent against its key's limits and budgets: the windows the limits count in, whatever the report's period. */
export const KeyAllowance = Type.Object(
  {
    name: Type.String({ description: "The key's name (a removed key's as recorded), `svc-token` or `anonymous`." }),
    keyId: Type.Union([Type.String(), Type.Null()], { description: "null for the svc token and anonymous callers." }),
    kind: literalUnion(USAGE_CALLER_KINDS, {
      description: "`key`: a key that exists now; `removed`: a key removed since, its usage kept under its name; `token`: the svc token and UI sessions; `anonymous`: callers without a key (debug mode).",
    }),
    limits: KeyLimits,
    lastMinute: UsageSpent,
    today: UsageSpent,
    month: UsageSpent,
    refused429: Type.Integer({ description: "Requests answered 429 (a limit, a budget or a full queue) since `since`." }),
  },
  { $id: "KeyAllowance" },
);
export type KeyAllowance = Static<typeof KeyAllowance>;

export const UsageHour = Type.Object(
  {
    hour: Type.String({ format: "date-time", description: "The hour's start (UTC)." }),
    key: Type.String({ description: "The caller's name, as `name` in `keys`." }),
    requests: Type.Integer({ description: "Requests answered (429 refusals not counted)." }),
    tokens: Type.Integer({ description: "Prompt + completion tokens." }),
  },
  { $id: "UsageHour" },
);
export type UsageHour = Static<typeof UsageHour>;

export const HourlyUsage = Type.Object(
  {
    window: literalUnion(USAGE_HOURLY_WINDOWS),
    from: Type.String({ format: "date-time", description: "The first hour's start: 24 (`day`) or 168 (`week`) hours up to the current one." }),
    hours: Type.Array(UsageHour, { description: "Each hour and caller with requests; hours without any are left out." }),
  },
  { $id: "HourlyUsage" },
);
export type HourlyUsage = Static<typeof HourlyUsage>;

export const UsageReport = Type.Object(
  {
    since: Type.String({ format: "date-time" }),
    by: literalUnion(USAGE_GROUPINGS),
    retentionDays: Type.Integer({ description: "Usage older than this is deleted (SVC_USAGE_RETENTION_DAYS)." }),
    totals: Type.Object(Counts),
    groups: Type.Array(UsageGroup),
    days: Type.Array(UsageDay),
    services: Type.Array(ServiceTime),
    at: Type.String({ format: "date-time", description: "When the report was made: the last minute, today and this month (UTC) end here." }),
    keys: Type.Array(KeyAllowance, { description: "Every key that exists now, and every other caller with usage in the last minute, this month or the period, against the key's limits." }),
    hourly: HourlyUsage,
  },
  { $id: "UsageReport" },
);
export type UsageReport = Static<typeof UsageReport>;
