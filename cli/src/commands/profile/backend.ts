import type { Profile, ProfileChange, ProfileCreate, ProfileUpdate } from "@svc/contracts";
import { SvcApiError, SvcUnreachableError } from "@svc/client";
import { homeLayout } from "@svc/platform/config";
import type { CliContext } from "../../io";

/** What the profile commands need: the REST API's profile operations. */
export interface ProfilesBackend {
  list(): Promise<Profile[]>;
  get(name: string): Promise<Profile>;
  create(input: ProfileCreate): Promise<ProfileChange>;
  update(name: string, changes: ProfileUpdate): Promise<ProfileChange>;
  remove(name: string): Promise<void>;
}

type Operation = keyof ProfilesBackend;

/**
 * Profiles through the running application's API; when the application is not running (e.g.
 * `svc init` on a fresh machine), through the same profile-svc code working on
 * $SVC_HOME_DIR/profiles.cfg directly: the same rules and checks, the same lock and atomic writes.
 */
export function profilesBackend(ctx: CliContext): ProfilesBackend {
  let direct: Promise<ProfilesBackend> | undefined;

  const openDirect = () =>
    (direct ??= (async () => {
      const { ProfileService } = await import("@svc/profile-svc/src/profiles/service");
      const file = homeLayout(ctx.settings().homeDir).profilesFile;
      ctx.io.err(`svc is not running at ${ctx.client().baseUrl}; working on ${file} directly.`);
      const service = new ProfileService({ profilesFile: file, env: ctx.env });
      return service as ProfilesBackend;
    })());

  const call = async <K extends Operation>(operation: K, ...args: Parameters<ProfilesBackend[K]>) => {
    try {
      const api = ctx.client().profiles as ProfilesBackend;
      return await (api[operation] as (...a: unknown[]) => Promise<unknown>)(...args);
    } catch (error) {
      if (!(error instanceof SvcUnreachableError)) throw error;
    }
    const service = await openDirect();
    try {
      return await (service[operation] as (...a: unknown[]) => Promise<unknown>).apply(service, args);
    } catch (error) {
      // The service's ApiError carries the same status, code and message the API would answer.
      const apiError = error as { name?: string; status?: number; code?: string; message: string; details?: unknown };
      if (apiError?.name === "ApiError" && typeof apiError.status === "number") {
        throw new SvcApiError(apiError.status, apiError.code ?? "error", apiError.message, apiError.details);
      }
      throw error;
    }
  };

  return {
    list: () => call("list") as Promise<Profile[]>,
    get: (name) => call("get", name) as Promise<Profile>,
    create: (input) => call("create", input) as Promise<ProfileChange>,
    update: (name, changes) => call("update", name, changes) as Promise<ProfileChange>,
    remove: (name) => call("remove", name) as Promise<void>,
  };
}
