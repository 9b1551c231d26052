/** Profile names and kinds as plain values (profiles.ts has the schemas). */

/** Letters, digits, `.`, `_`, `-`; starts with a letter or digit; at most 63 characters. */
export const PROFILE_NAME_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$";
export const PROFILE_NAME_RULE = "1–63 characters: letters, digits, '.', '_' or '-', starting with a letter or digit";
export const DEFAULT_PROFILE = "default";
export const PROFILE_SCHEMAS = ["local", "slurm"] as const;
