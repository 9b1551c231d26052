import { Value } from "@sinclair/typebox/value";
import { GPU_ENGINES, isGpuEngine, isSlurmRuntime, parseDuration, parseGpuMemorySetting, PROFILE_NAME_RULE, Profile, type LocalProfile, type SlurmProfile, PROFILE_JOB_DEFAULTS, SLURM_VALUE_RULES } from "@svc/contracts";
import { LineError, type IniSection } from "./ini-document";

/**
 * Other names of the same attributes, read and rewritten under the current ones: Blackfish writes
 * `type`, and `home_dir`/`cache_dir` in every section (slurm ones too); older files have `home`/`cache` in local ones.
 */
export const KEY_ALIASES = {
  common: { schema: ["type"] },
  local: { schema: ["type"], home_dir: ["home"], cache_dir: ["cache"] },
  slurm: { schema: ["type"], home: ["home_dir"], cache: ["cache_dir"] },
} as const satisfies Record<string, Record<string, readonly string[]>>;

const mutable = (aliases: Record<string, readonly string[]>) =>
  Object.fromEntries(Object.entries(aliases).map(([key, names]) => [key, [...names]])) as Record<string, string[]>;

/** The entry for an attribute under its name or an older one; both at once is an error naming the second line. */
function pick(section: IniSection, key: string, aliases: readonly string[] = []) {
  const found = [key, ...aliases].flatMap((name) => {
    const entry = section.entries.get(name);
    return entry ? [{ ...entry, key: name }] : [];
  });
  if (found.length > 1) {
    const [first, second] = found.sort((a, b) => a.line - b.line);
    throw new LineError(second.line, `profile [${section.name}] gives ${key} twice, as "${first.key}" (line ${first.line}) and as "${second.key}": keep one of them`);
  }
  return found[0];
}

/** Reads one section as a profile (current or older key names); a section that is not a valid profile is a LineError naming the line to fix. */
export function profileFromSection(section: IniSection): Profile {
  const schema = pick(section, "schema", KEY_ALIASES.common.schema);
  const where = `profile [${section.name}]`;
  if (!schema) throw new LineError(section.line, `${where} has no schema: add "schema = local" or "schema = slurm"`);
  const require = (key: string, aliases: readonly string[] = []) => {
    const entry = pick(section, key, aliases);
    if (!entry || entry.value === "") throw new LineError(section.line, `${where} (schema ${schema.value}) needs "${key} = …"`);
    return entry.value;
  };
  let profile: Profile;
  if (schema.value === "local") {
    profile = {
      name: section.name,
      schema: "local",
      home_dir: require("home_dir", KEY_ALIASES.local.home_dir),
      cache_dir: require("cache_dir", KEY_ALIASES.local.cache_dir),
    } satisfies LocalProfile;
  } else if (schema.value === "slurm") {
    const slurm: SlurmProfile = {
      name: section.name,
      schema: "slurm",
      host: require("host"),
      user: require("user"),
      home: require("home", KEY_ALIASES.slurm.home),
      cache: require("cache", KEY_ALIASES.slurm.cache),
    };
    const port = pick(section, "port");
    if (port) {
      const number = /^\d+$/.test(port.value) ? Number(port.value) : Number.NaN;
      if (!(number >= 1 && number <= 65535)) throw new LineError(port.line, `port "${port.value}" is not a port number (1–65535)`);
      slurm.port = number;
    }
    const identity = pick(section, "identity_file");
    if (identity?.value) slurm.identity_file = identity.value;
    const runtime = pick(section, "runtime");
    if (runtime?.value) {
      if (!isSlurmRuntime(runtime.value)) throw new LineError(runtime.line, `runtime "${runtime.value}" is not one of bare, apptainer`);
      slurm.runtime = runtime.value;
    }
    for (const key of PROFILE_JOB_DEFAULTS) {
      const entry = pick(section, key);
      if (!entry?.value) continue;
      const rule = key === "partition" ? SLURM_VALUE_RULES.PARTITION : SLURM_VALUE_RULES.ACCOUNT;
      if (!rule.test(entry.value)) throw new LineError(entry.line, `${key} "${entry.value}" is not a Slurm ${key} name (letters, digits, '_', '.', '-')`);
      slurm[key] = entry.value;
    }
    profile = slurm;
  } else {
    throw new LineError(schema.line, `${where} has schema "${schema.value}": use local or slurm`);
  }
  const idle = pick(section, "idle_stop");
  if (idle?.value) {
    if (parseDuration(idle.value) === undefined) throw new LineError(idle.line, `idle_stop "${idle.value}" is not a duration: use e.g. 30m, 2h, 1h30m or HH:MM:SS`);
    profile.idle_stop = idle.value;
  }
  const engine = pick(section, "engine");
  if (engine?.value) {
    if (!isGpuEngine(engine.value)) throw new LineError(engine.line, `engine "${engine.value}" is not one of ${GPU_ENGINES.join(", ")}`);
    profile.engine = engine.value;
  }
  const gpuMemory = pick(section, "gpu_memory");
  if (gpuMemory?.value) {
    const problem = parseGpuMemorySetting(gpuMemory.value);
    if (typeof problem === "string") throw new LineError(gpuMemory.line, problem);
    profile.gpu_memory = gpuMemory.value;
  }
  if (!Value.Check(Profile, profile)) {
    const nameOk = new RegExp(Profile.anyOf[0].properties.name.pattern!).test(section.name);
    throw new LineError(
      section.line,
      nameOk ? `${where} has a value svc cannot use (check its paths and host for odd characters)` : `profile name "${section.name}" is not allowed: ${PROFILE_NAME_RULE}`,
    );
  }
  return profile;
}

/** The key/value lines to write for a profile (current key names; `undefined` removes a key). */
export function sectionValues(profile: Profile): { values: Array<[string, string | undefined]>; aliases: Record<string, string[]> } {
  if (profile.schema === "local") {
    return {
      values: [
        ["schema", "local"],
        ["home_dir", profile.home_dir],
        ["cache_dir", profile.cache_dir],
        ["idle_stop", profile.idle_stop],
        ["engine", profile.engine],
        ["gpu_memory", profile.gpu_memory],
      ],
      aliases: mutable(KEY_ALIASES.local),
    };
  }
  return {
    values: [
      ["schema", "slurm"],
      ["host", profile.host],
      ["user", profile.user],
      ["home", profile.home],
      ["cache", profile.cache],
      ["port", profile.port === undefined ? undefined : String(profile.port)],
      ["identity_file", profile.identity_file],
      ["runtime", profile.runtime],
      ["idle_stop", profile.idle_stop],
      ["engine", profile.engine],
      ...PROFILE_JOB_DEFAULTS.map((key): [string, string | undefined] => [key, profile[key]]),
      ["gpu_memory", profile.gpu_memory],
    ],
    aliases: mutable(KEY_ALIASES.slurm),
  };
}
