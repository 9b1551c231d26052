import { DEFAULT_KEY_WEIGHT } from "@svc/contracts";
import { callerName } from "../../usage/store";
import type { Caller } from "../caller";

/** Whose queue a request waits in: one per key; callers without a key share one per kind (the svc token, anonymous). */
export interface Flow {
  id: string;
  /** As usage names callers: the key's name, `svc-token` or `anonymous`. */
  name: string;
  weight: number;
}

export function flowOf(caller: Caller): Flow {
  if (caller.kind === "key") return { id: `key:${caller.id}`, name: caller.name, weight: caller.policy?.weight ?? DEFAULT_KEY_WEIGHT };
  return { id: caller.kind, name: callerName(caller), weight: DEFAULT_KEY_WEIGHT };
}
