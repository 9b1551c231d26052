import type { ServiceTier } from "@svc/contracts";
import type { Caller } from "./caller";
import type { V1Body } from "./request-body";
import type { V1Outcome } from "./outcome";

/** A request let in: its tier, headers for its answer, and what to do when it is over. */
export interface Admitted {
  /** The tier it waits in when its model is saturated. */
  tier: ServiceTier;
  /** Headers every answer to it carries (the key's x-ratelimit-*). */
  headers: Record<string, string>;
  /** Called once when it is over: its outcome (real usage settles what was reserved), or null when the caller went away first. */
  settle(outcome: V1Outcome | null): void;
}

/**
 * The admit stage: whether a request may go on before its model is looked up (the key's rates,
 * requests in flight, budgets and tier), or the refusal to answer.
 */
export interface Admission {
  admit(caller: Caller, endpoint: string, body: V1Body): Admitted | Response;
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const LET_IN: Admitted = Object.freeze({ tier: "default", headers: NO_HEADERS, settle() {} });

/** Lets every request in at the default tier (a gateway without keys' limits: tests, rigs). */
export const ADMIT_ALL: Admission = { admit: () => LET_IN };
