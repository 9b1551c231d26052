export * from "./settings";
export * from "./home-layout";
export { MIN_TOKEN_LENGTH, DEFAULT_USAGE_RETENTION_DAYS, parseUsageRetentionDays } from "./parse";
export * from "./images";
export { FAIR_SHARE_DEFAULTS, parseFairShare, type FairShareSettings } from "./fair-share";
