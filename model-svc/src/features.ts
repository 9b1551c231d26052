import type { AnyElysia } from "elysia";
import { exitOnConfigError, internalClient, type ServiceContext } from "@svc/platform";
import { openModelDb } from "./db/connection";
import { modelsController } from "./models";
import { ModelService } from "./models/service";
import { downloadsController } from "./downloads";
import { DownloadService } from "./downloads/service";
import { hubSettings } from "./hub/endpoint";

/** The feature controllers this service serves; each lives in its own folder. */
export function features(ctx: ServiceContext): AnyElysia[] {
  // Read again at each download; checked here so that a bad timeout stops start-up, naming the variable.
  exitOnConfigError(() => hubSettings());
  const db = openModelDb(ctx.dataDir);
  const profiles = internalClient(ctx.upstreams, ctx.internalSecret).profiles;
  const models = new ModelService({ db, profiles });
  const downloads = new DownloadService({ models, profiles });
  // Downloads first: its /api/models/downloads routes are more specific than /api/models.
  return [downloadsController(downloads), modelsController(models)];
}
