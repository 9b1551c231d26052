import { homedir } from "node:os";
import { ApiError, badRequest, closest, didYouMean, GPU_ENGINES, isGpuEngine, parseDuration, parseGpuMemorySetting, conflict, notFound, DEFAULT_PROFILE, PROFILE_NAME_PATTERN, PROFILE_NAME_RULE, SLURM_RUNTIMES, isSlurmRuntime, type LocalProfile, type Profile, type ProfileChange, type ProfileCreate, type ProfileUpdate, type SlurmProfile, PROFILE_JOB_DEFAULTS, SLURM_VALUE_RULES } from "@svc/contracts";
import { sectionValues } from "./codec";
import { checkLocalProfile } from "./local-checks";
import { localPath, remotePath } from "./paths";
import { checkSlurmProfile, type SlurmCheckOptions } from "./slurm-checks";
import { GpuCache } from "../gpus/cache";
import { readLocalGpus } from "../gpus/local-gpus";
import type { GpuReading } from "../gpus/reading";
import { ProfileStore, ProfilesFileBusyError, ProfilesFileError, type ProfilesState } from "./store";

export interface ProfileServiceOptions {
  /** $SVC_HOME_DIR/profiles.cfg */
  profilesFile: string;
  /** The local user's home: `~` in local paths, and ~/.ssh. Default $HOME. */
  userHome?: string;
  env?: Record<string, string | undefined>;
  /** Time limit for the SSH handshake of Slurm checks. */
  sshTimeoutMs?: number;
  /** Where each profile's last GPU reading is kept (see GpuCache); in memory when absent. */
  gpuCacheDir?: string;
  /** How a local profile's GPUs are read (default: nvidia-smi, when there is one). */
  localGpus?: () => Promise<GpuReading>;
}

const LOCAL_FIELDS = ["home_dir", "cache_dir"] as const;
const SLURM_FIELDS = ["host", "user", "home", "cache", "port", "identity_file", "runtime", ...PROFILE_JOB_DEFAULTS] as const;
const HOST = /^[A-Za-z0-9_.%:-]+$/;
const USER = /^[A-Za-z0-9_][A-Za-z0-9_.-]*\$?$/;

type Attributes = Omit<ProfileCreate, "name" | "schema">;

/** Every value is one line of profiles.cfg: control characters (newlines, tabs, …) are refused. */
function oneLine(attributes: Record<string, unknown>): void {
  for (const [field, value] of Object.entries(attributes)) {
    if (typeof value === "string" && /[\x00-\x1f\x7f]/.test(value)) {
      throw badRequest(`${field} contains a line break or another control character: give it on one line.`, { field });
    }
  }
}

/** Profiles: the rules of spec §2.2 over profiles.cfg. No HTTP here; the controller and the CLI both use it. */
export class ProfileService {
  readonly store: ProfileStore;
  /** The last GPU reading of each profile: written with each check, read by the GPU routes. */
  readonly gpuCache: GpuCache;
  private readonly userHome: string;
  private readonly env: Record<string, string | undefined>;

  constructor(private readonly options: ProfileServiceOptions) {
    this.store = new ProfileStore(options.profilesFile);
    this.gpuCache = new GpuCache(options.gpuCacheDir);
    this.env = options.env ?? process.env;
    this.userHome = options.userHome ?? (this.env.HOME || homedir());
  }

  get file(): string {
    return this.store.file;
  }

  /** Turns store errors into API errors (a broken file is the user's to fix: 409 naming the line). */
  private async guard<T>(work: () => T | Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ProfilesFileError) {
        throw new ApiError(
          409,
          "profiles_file_invalid",
          `${error.message} svc leaves the file as it is until that line is fixed by hand.`,
          { file: error.file, line: error.line },
        );
      }
      if (error instanceof ProfilesFileBusyError) throw new ApiError(409, "profiles_file_busy", error.message);
      throw error;
    }
  }

  private noProfiles(): ApiError {
    return new ApiError(404, "no_profiles", `No profiles exist yet (${this.file} has none): run \`svc init\` to create the default profile.`);
  }

  private find(state: ProfilesState, name: string): Profile {
    const profile = state.profiles.find((p) => p.name === name);
    if (profile) return profile;
    if (state.profiles.length === 0) throw this.noProfiles();
    throw notFound(`No profile named "${name}". Profiles: ${state.profiles.map((p) => p.name).join(", ")}.`);
  }

  list(): Promise<Profile[]> {
    return this.guard(() => this.store.load().profiles);
  }

  get(name: string): Promise<Profile> {
    return this.guard(() => this.find(this.store.load(), name));
  }

  /** Creates a profile after its checks pass; nothing is written when any check fails. */
  create(input: ProfileCreate): Promise<ProfileChange> {
    return this.guard(async () => {
      if (!new RegExp(PROFILE_NAME_PATTERN).test(input.name)) throw badRequest(`Profile name "${input.name}" is not allowed: ${PROFILE_NAME_RULE}.`, { field: "name" });
      const { name, schema, host_key_fingerprint: fingerprint, ...attributes } = input;
      oneLine(attributes);
      const profile = this.normalise(name, schema, attributes);
      this.checkCanAdd(this.store.load(), name);
      const { gpus, ...checks } = await this.check(profile, fingerprint);
      await this.store.update((state) => {
        this.checkCanAdd(state, name);
        const { values, aliases } = sectionValues(profile);
        state.doc.setSection(name, values, aliases);
      });
      this.keepGpus(name, gpus);
      return { profile, ...checks };
    });
  }

  /** Changes a profile's attributes (name and schema stay); the checks run again on the result. */
  update(name: string, patch: ProfileUpdate): Promise<ProfileChange> {
    return this.guard(async () => {
      const current = this.find(this.store.load(), name);
      if (patch.name !== undefined && patch.name !== name) {
        throw badRequest(`A profile's name cannot change (it is "${name}"): create a new profile with \`svc profile add\` and remove this one.`, { field: "name" });
      }
      if (patch.schema !== undefined && patch.schema !== current.schema) {
        throw badRequest(`A profile's schema cannot change (profile "${name}" is ${current.schema}): create a new profile for ${patch.schema}.`, { field: "schema" });
      }
      const { name: _n, schema: _s, host_key_fingerprint: fingerprint, ...changes } = patch;
      const { name: _cn, schema: _cs, ...existing } = current;
      oneLine(changes);
      const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      const profile = this.normalise(name, current.schema, { ...existing, ...defined }, Object.keys(defined));
      const { gpus, ...checks } = await this.check(profile, fingerprint);
      await this.store.update((state) => {
        const now = this.find(state, name);
        if (now.schema !== profile.schema) throw conflict(`Profile "${name}" changed schema meanwhile (now ${now.schema}); try again.`);
        const { values, aliases } = sectionValues(profile);
        state.doc.setSection(name, values, aliases);
      });
      this.keepGpus(name, gpus);
      return { profile, ...checks };
    });
  }

  /** Removes a profile; the default profile is required and cannot be removed. */
  remove(name: string): Promise<void> {
    return this.guard(async () => {
      if (name === DEFAULT_PROFILE) {
        throw new ApiError(409, "default_profile_required", `The "default" profile is required and cannot be removed: change it with \`svc profile update\` instead.`);
      }
      await this.store.update((state) => {
        this.find(state, name);
        state.doc.removeSection(name);
      });
      this.gpuCache.forget(name);
    });
  }

  /** A check's GPU reading replaces the last one; a check that could not read them drops it (it may be of another host). */
  private keepGpus(name: string, gpus: GpuReading | undefined): void {
    if (gpus) this.gpuCache.save(name, gpus);
    else this.gpuCache.forget(name);
  }

  /** This machine's GPUs, for local profiles. */
  readLocalGpus(): Promise<GpuReading> {
    return (this.options.localGpus ?? readLocalGpus)();
  }

  /** How this service reaches a slurm profile's cluster (its checks' options). */
  get clusterOptions(): SlurmCheckOptions {
    return { userHome: this.userHome, env: this.env, timeoutMs: this.options.sshTimeoutMs };
  }

  private checkCanAdd(state: ProfilesState, name: string): void {
    if (state.profiles.some((p) => p.name === name)) {
      throw conflict(`A profile named "${name}" already exists: choose another name, or change it with \`svc profile update --name ${name}\`.`);
    }
    if (name !== DEFAULT_PROFILE && !state.profiles.some((p) => p.name === DEFAULT_PROFILE)) {
      throw new ApiError(409, "default_profile_required", `A profile named "default" is required first: run \`svc init\` (or create a profile named default), then add "${name}".`);
    }
  }

  /** Validates attributes for the schema and normalises paths; `given` lists the fields the caller set (for messages). */
  private normalise(name: string, schema: string, attributes: Attributes, given: string[] = Object.keys(attributes)): Profile {
    const profile = this.normaliseSchema(name, schema, attributes, given);
    const idle = attributes.idle_stop?.trim();
    if (idle) {
      if (parseDuration(idle) === undefined) throw badRequest(`idle_stop "${idle}" is not a duration: use e.g. 30m, 2h, 1h30m or HH:MM:SS.`, { field: "idle_stop" });
      profile.idle_stop = idle;
    }
    const engine = attributes.engine?.trim();
    if (engine) {
      if (!isGpuEngine(engine)) throw badRequest(`engine "${engine}" is not one of ${GPU_ENGINES.join(", ")}.${didYouMean(closest(engine, GPU_ENGINES))}`, { field: "engine" });
      profile.engine = engine;
    }
    const gpuMemory = attributes.gpu_memory?.trim();
    if (gpuMemory) {
      const problem = parseGpuMemorySetting(gpuMemory);
      if (typeof problem === "string") throw badRequest(`${problem}.`, { field: "gpu_memory" });
      profile.gpu_memory = gpuMemory;
    }
    return profile;
  }

  private normaliseSchema(name: string, schema: string, attributes: Attributes, given: string[]): Profile {
    const set = (field: string) => (attributes as Record<string, unknown>)[field] !== undefined && given.includes(field);
    if (schema === "local") {
      const foreign = SLURM_FIELDS.filter(set);
      if (foreign.length > 0) {
        const hint = foreign.includes("home") || foreign.includes("cache") ? " (a local profile names them home_dir and cache_dir)" : "";
        throw badRequest(`${foreign.join(", ")} ${foreign.length > 1 ? "are" : "is"} not an attribute of a local profile${hint}: a local profile has home_dir and cache_dir.`, { field: foreign[0] });
      }
      for (const field of LOCAL_FIELDS) if (!attributes[field]?.trim()) throw badRequest(`${field} is required for a local profile.`, { field });
      return {
        name,
        schema: "local",
        home_dir: localPath(attributes.home_dir!, "home_dir", this.userHome),
        cache_dir: localPath(attributes.cache_dir!, "cache_dir", this.userHome),
      } satisfies LocalProfile;
    }
    if (schema === "slurm") {
      const foreign = LOCAL_FIELDS.filter(set);
      if (foreign.length > 0) throw badRequest(`${foreign.join(", ")} belong${foreign.length > 1 ? "" : "s"} to local profiles: a slurm profile has host, user, home and cache.`, { field: foreign[0] });
      for (const field of ["host", "user", "home", "cache"] as const) {
        if (!attributes[field]?.trim()) throw badRequest(`${field} is required for a slurm profile.`, { field });
      }
      const host = attributes.host!.trim();
      if (host.includes("@")) throw badRequest(`host "${host}" contains '@': put the user name in user, and only the host name in host.`, { field: "host" });
      if (!HOST.test(host)) throw badRequest(`host "${host}" is not a host name, address or ~/.ssh/config alias: use letters, digits, '.', '-' and '_' only (or localhost).`, { field: "host" });
      const user = attributes.user!.trim();
      if (!USER.test(user)) throw badRequest(`user "${user}" is not a user name: use letters, digits, '.', '_' and '-', starting with a letter, digit or '_'.`, { field: "user" });
      const profile: SlurmProfile = { name, schema: "slurm", host, user, home: remotePath(attributes.home!, "home"), cache: remotePath(attributes.cache!, "cache") };
      if (attributes.port !== undefined) profile.port = attributes.port;
      if (attributes.identity_file?.trim()) profile.identity_file = localPath(attributes.identity_file, "identity_file", this.userHome);
      if (attributes.runtime !== undefined) {
        const runtime = attributes.runtime.trim();
        if (!isSlurmRuntime(runtime)) throw badRequest(`runtime "${runtime}" is not one of ${SLURM_RUNTIMES.join(", ")}.`, { field: "runtime" });
        profile.runtime = runtime;
      }
      for (const field of PROFILE_JOB_DEFAULTS) {
        const value = attributes[field]?.trim();
        if (!value) continue;
        const rule = field === "partition" ? SLURM_VALUE_RULES.PARTITION : SLURM_VALUE_RULES.ACCOUNT;
        if (!rule.test(value)) throw badRequest(`${field} ${JSON.stringify(value)}: a Slurm ${field} name has letters, digits, '_', '.' and '-' only.`, { field });
        profile[field] = value;
      }
      return profile;
    }
    throw badRequest(`schema "${schema}" is not one of local, slurm.`, { field: "schema" });
  }

  private async check(profile: Profile, hostKeyFingerprint: string | undefined): Promise<Omit<ProfileChange, "profile"> & { gpus?: GpuReading }> {
    if (profile.schema === "local") return { notices: checkLocalProfile(profile.home_dir, profile.cache_dir), gpus: await this.readLocalGpus() };
    return checkSlurmProfile(profile, { ...this.clusterOptions, hostKeyFingerprint });
  }
}
