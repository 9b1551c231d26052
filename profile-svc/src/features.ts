import type { AnyElysia } from "elysia";
import { homeLayout, type ServiceContext } from "@svc/platform";
import { join } from "node:path";
import { gpusController } from "./gpus";
import { GpusService } from "./gpus/service";
import { profilesController } from "./profiles";
import { ProfileService } from "./profiles/service";

/** The feature controllers this service serves; each lives in its own folder. */
export function features(ctx: ServiceContext): AnyElysia[] {
  const profiles = new ProfileService({ profilesFile: homeLayout(ctx.settings.homeDir).profilesFile, gpuCacheDir: join(ctx.dataDir, "gpus") });
  return [profilesController(profiles), gpusController(new GpusService(profiles))];
}
