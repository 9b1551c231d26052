import type { Caller } from "../openai/caller";

/** Who owns a file or batch: one key never sees another's; the svc token and anonymous callers (debug mode) each have their own. */
export const ownerOf = (caller: Caller) => (caller.kind === "key" ? `key:${caller.id}` : caller.kind);
