import type { ClusterGpus, Profile, ProfileChange, ProfileCreate, ProfileUpdate } from "@svc/contracts";
import { SvcUnreachableError } from "@svc/client";
import { homeLayout } from "@svc/platform/config";
import type { CliContext } from "../../io";

/** What the profile commands need: the REST API's profile operations. */
export interface ProfilesBackend {
  list(): Promise<Profile[]>;
  get(name: string): Promise<Profile>;
  create(input: ProfileCreate): Promise<ProfileChange>;
  update(name: string, changes: ProfileUpdate): Promise<ProfileChange>;
  remove(name: string): Promise<void>;
  /** The profile's partitions and GPUs (the last reading; `refresh` reads again). */
  gpus(name: string, options?: { refresh?: boolean }): Promise<ClusterGpus>;
}

type Operation = keyof ProfilesBackend;

/**
 * Profiles through the running application's API; when the application is not running (e.g.
 * `svc init` on a fresh machine), through profile-svc's own operations on
 * $SVC_HOME_DIR/profiles.cfg: the same rules and checks, the same lock and atomic writes, and the
 * same ApiError the API would answer.
 */
export function profilesBackend(ctx: CliContext): ProfilesBackend {
  // One per command run, so "svc is not running…" is said once (svc init lists, then creates).
  let backend = backends.get(ctx);
  if (!backend) backends.set(ctx, (backend = openBackend(ctx)));
  return backend;
}

const backends = new WeakMap<CliContext, ProfilesBackend>();

function openBackend(ctx: CliContext): ProfilesBackend {
  let direct: Promise<ProfilesBackend> | undefined;

  const openDirect = () =>
    (direct ??= (async () => {
      const { profilesOnDisk } = await import("@svc/profile-svc/offline");
      const file = homeLayout(ctx.settings().homeDir).profilesFile;
      ctx.io.err(`svc is not running at ${ctx.client().baseUrl}; working on ${file} directly.`);
      return profilesOnDisk(file, ctx.env);
    })());

  const call = async <K extends Operation>(operation: K, ...args: Parameters<ProfilesBackend[K]>) => {
    try {
      const api = ctx.client().profiles as ProfilesBackend;
      return await (api[operation] as (...a: unknown[]) => Promise<unknown>)(...args);
    } catch (error) {
      if (!(error instanceof SvcUnreachableError)) throw error;
    }
    const service = await openDirect();
    return (service[operation] as (...a: unknown[]) => Promise<unknown>).apply(service, args);
  };

  return {
    list: () => call("list") as Promise<Profile[]>,
    get: (name) => call("get", name) as Promise<Profile>,
    create: (input) => call("create", input) as Promise<ProfileChange>,
    update: (name, changes) => call("update", name, changes) as Promise<ProfileChange>,
    remove: (name) => call("remove", name) as Promise<void>,
    gpus: (name, options) => call("gpus", name, options) as Promise<ClusterGpus>,
  };
}
