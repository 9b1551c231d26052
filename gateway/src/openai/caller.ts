import type { KeyLimits, ServiceTier } from "@svc/contracts";

/** What a key is held to through /v1: its limits and budgets (admission), its tier and its weight (fair share). */
export interface KeyPolicy {
  limits: KeyLimits;
  tier: ServiceTier;
  weight: number;
}

/**
 * Who sent a /v1 request: an API key (limited to some models, or none; `policy` set when the key
 * came with the request), the svc token, or anyone (debug mode, or a UI session).
 */
export type Caller = { kind: "key"; id: string; name: string; models: string[] | null; policy?: KeyPolicy } | { kind: "token" } | { kind: "anonymous" };

/** Decides who a /v1 request comes from, or the error to answer (401 for a wrong, removed or expired key). */
export type Authenticate = (request: Request) => Caller | Response;

export const mayUse = (caller: Caller, repo: string) => caller.kind !== "key" || caller.models === null || caller.models.includes(repo);
