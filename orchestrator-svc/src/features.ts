import type { AnyElysia } from "elysia";
import type { ServiceContext } from "@svc/platform";

/** The feature controllers this service serves; each lives in its own folder. */
export function features(_ctx: ServiceContext): AnyElysia[] {
  return [];
}
