import type { AnyElysia } from "elysia";
import { homeLayout, type ServiceContext } from "@svc/platform";
import { profilesController } from "./profiles";
import { ProfileService } from "./profiles/service";

/** The feature controllers this service serves; each lives in its own folder. */
export function features(ctx: ServiceContext): AnyElysia[] {
  return [profilesController(new ProfileService({ profilesFile: homeLayout(ctx.settings.homeDir).profilesFile }))];
}
