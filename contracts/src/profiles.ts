import { Type, type Static } from "@sinclair/typebox";

/**
 * Profiles (spec §2.2): where and how services run. Field names are those of profiles.cfg.
 * Shared by profile-svc (which owns $SVC_HOME_DIR/profiles.cfg), the gateway, the client and the CLI.
 */

// Names and kinds are plain values in profile-values.ts (index.ts exports them), so the CLI reads them without loading typebox.
import { PROFILE_NAME_PATTERN, PROFILE_NAME_RULE, type PROFILE_SCHEMAS } from "./profile-values";
export type ProfileSchemaName = (typeof PROFILE_SCHEMAS)[number];
import { GPU_ENGINES, literalUnion, SLURM_VALUE_RULES, type RuntimeKind } from "./services";

export const ProfileName = Type.String({ pattern: PROFILE_NAME_PATTERN, description: `Profile name: ${PROFILE_NAME_RULE}.`, examples: ["default"] });
export const ProfileSchemaName = Type.Union([Type.Literal("local"), Type.Literal("slurm")], {
  description: "`local`: run on this machine; `slurm`: run as Slurm jobs on a (possibly remote) server.",
});

/** One line of text: no control characters (a value is one line of profiles.cfg). */
const line = (description: string, maxLength = 4096) => Type.String({ minLength: 1, maxLength, pattern: "^[^\\x00-\\x1f\\x7f]+$", description });

const RUNTIME =
  "How a Slurm job starts its server: `bare` runs the svc runtime (its own Bun and the runtime tree), which svc installs under <home>/runtime (clusters without a container engine); `apptainer` runs a SIF image that svc pulls (or builds from a local image) into <home>/images, or finds in <cache>/images. Default: bare.";
/** The runtime kinds a slurm profile can choose (see RUNTIME_KINDS). */
export const SLURM_RUNTIMES = ["bare", "apptainer"] as const satisfies readonly RuntimeKind[];
export type SlurmRuntime = (typeof SLURM_RUNTIMES)[number];
export const isSlurmRuntime = (text: unknown): text is SlurmRuntime => (SLURM_RUNTIMES as readonly unknown[]).includes(text);

const IDLE_STOP = "Default --idle-stop of this profile's services (e.g. 30m): a service that answered no request for that long is stopped.";
const JOB_DEFAULT = (what: string, option: string) => `The Slurm ${what} of this profile's jobs when \`svc run\` gives no ${option}.`;
/** The job options a slurm profile can carry defaults for (profiles.cfg keys, `svc profile add --account …`). */
export const PROFILE_JOB_DEFAULTS = ["account", "partition", "qos"] as const;

const ENGINE = "The GPU text-generation server of this profile's services when `svc run` gives no --engine: vllm (the default) or sglang.";
const GPU_MEMORY =
  "Memory of one GPU, for GPU types svc's table does not know or gives the wrong variant of (e.g. 80G for 80 GB A100s): one size for every type, or sizes per GRES type (`a100:80G, mi50:32G`). G = GiB, as Slurm reads --mem.";

const IDENTITY_FILE = "Private key to log in with; default: IdentityFile from ~/.ssh/config, else ~/.ssh/id_{rsa,ecdsa,ed25519} and ssh-agent.";

export const LocalProfile = Type.Object({
  name: ProfileName,
  schema: Type.Literal("local"),
  home_dir: line("Absolute path of the user-owned folder for model and image files; created when missing; must be writable."),
  cache_dir: line("Absolute path of a shared folder to source model and image files from; must exist and be readable (never created)."),
  idle_stop: Type.Optional(line(IDLE_STOP, 32)),
  engine: Type.Optional(literalUnion(GPU_ENGINES, { description: ENGINE })),
  gpu_memory: Type.Optional(line(GPU_MEMORY, 256)),
}, { $id: "LocalProfile" });
export type LocalProfile = Static<typeof LocalProfile>;

export const SlurmProfile = Type.Object({
  name: ProfileName,
  schema: Type.Literal("slurm"),
  host: line("SSH host (name, address or ~/.ssh/config alias) of the cluster, or `localhost` when svc runs on the cluster itself.", 253),
  user: line("User name to log in with.", 64),
  home: line("Folder on the server for model, image and job data (absolute, or ~/…); created when missing."),
  cache: line("Shared folder on the server with model and image files (absolute, or ~/…); must exist and be readable."),
  port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: "SSH port; default: Port from ~/.ssh/config, else 22." })),
  identity_file: Type.Optional(line(IDENTITY_FILE)),
  runtime: Type.Optional(literalUnion(SLURM_RUNTIMES, { description: RUNTIME })),
  idle_stop: Type.Optional(line(IDLE_STOP, 32)),
  engine: Type.Optional(literalUnion(GPU_ENGINES, { description: ENGINE })),
  account: Type.Optional(Type.String({ pattern: SLURM_VALUE_RULES.ACCOUNT.source, description: JOB_DEFAULT("account", "--account") })),
  partition: Type.Optional(Type.String({ pattern: SLURM_VALUE_RULES.PARTITION.source, description: JOB_DEFAULT("partition", "--partition") })),
  qos: Type.Optional(Type.String({ pattern: SLURM_VALUE_RULES.ACCOUNT.source, description: JOB_DEFAULT("quality of service", "--qos") })),
  gpu_memory: Type.Optional(line(GPU_MEMORY, 256)),
}, { $id: "SlurmProfile" });
export type SlurmProfile = Static<typeof SlurmProfile>;

export const Profile = Type.Union([LocalProfile, SlurmProfile], { $id: "Profile" });
export type Profile = Static<typeof Profile>;

/** A profile's home and cache folders, whatever its schema names them (on the host that runs its services). */
export const profileFolders = (profile: Profile) =>
  profile.schema === "local" ? { home: profile.home_dir, cache: profile.cache_dir } : { home: profile.home, cache: profile.cache };

/**
 * Request bodies check only the shape (types, lengths, no unknown fields); the service checks the
 * rules (name characters, schema, paths) so that each failure says what to fix in words.
 */
const text = (description: string, maxLength = 4096) => Type.String({ minLength: 1, maxLength, description });

const attributes = {
  home_dir: Type.Optional(text(LocalProfile.properties.home_dir.description!)),
  cache_dir: Type.Optional(text(LocalProfile.properties.cache_dir.description!)),
  host: Type.Optional(text(SlurmProfile.properties.host.description!, 253)),
  user: Type.Optional(text(SlurmProfile.properties.user.description!, 64)),
  home: Type.Optional(text(SlurmProfile.properties.home.description!)),
  cache: Type.Optional(text(SlurmProfile.properties.cache.description!)),
  port: SlurmProfile.properties.port,
  identity_file: Type.Optional(text(IDENTITY_FILE)),
  idle_stop: Type.Optional(text(IDLE_STOP, 32)),
  engine: Type.Optional(Type.String({ maxLength: 16, description: `${ENGINE} An empty string removes it.` })),
  gpu_memory: Type.Optional(Type.String({ maxLength: 256, description: `${GPU_MEMORY} An empty string removes it.` })),
  runtime: Type.Optional(Type.String({ minLength: 1, maxLength: 16, description: RUNTIME })),
  account: Type.Optional(Type.String({ maxLength: 128, description: `${JOB_DEFAULT("account", "--account")} An empty string removes it.` })),
  partition: Type.Optional(Type.String({ maxLength: 128, description: `${JOB_DEFAULT("partition", "--partition")} An empty string removes it.` })),
  qos: Type.Optional(Type.String({ maxLength: 128, description: `${JOB_DEFAULT("quality of service", "--qos")} An empty string removes it.` })),
  host_key_fingerprint: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description:
        "slurm: the SHA256 fingerprint of the host's key that the user checked and accepts, needed when the host is not in known_hosts yet (422 ssh_host_key_unknown gives it). Not stored in the profile.",
    }),
  ),
};

/** Body of POST /api/profiles: name, schema and that schema's attributes. */
export const ProfileCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 256, description: ProfileName.description }),
    schema: Type.String({ minLength: 1, maxLength: 64, description: ProfileSchemaName.description }),
    ...attributes,
  },
  {
    $id: "ProfileCreate",
    additionalProperties: false,
    examples: [
      { name: "default", schema: "local", home_dir: "/home/me/.svc", cache_dir: "/data/models" },
      { name: "cluster", schema: "slurm", host: "login.cluster.example", user: "me", home: "~/svc", cache: "/shared/models" },
    ],
  },
);
export type ProfileCreate = Static<typeof ProfileCreate>;

/**
 * Body of PUT /api/profiles/{name}: the attributes to change; omitted ones keep their value.
 * `name` and `schema` may be given but cannot change.
 */
export const ProfileUpdate = Type.Object(
  { name: Type.Optional(Type.String({ maxLength: 256 })), schema: Type.Optional(Type.String({ maxLength: 64 })), ...attributes },
  { $id: "ProfileUpdate", additionalProperties: false },
);
export type ProfileUpdate = Static<typeof ProfileUpdate>;

export const HostKeyNotice = Type.Object({
  name: Type.String({ description: "The name the key is recorded under, e.g. `[host]:2222`." }),
  type: Type.String({ description: "Key type, e.g. ssh-ed25519." }),
  fingerprint: Type.String({ description: "SHA256 fingerprint as ssh prints it." }),
  status: Type.Union([Type.Literal("known"), Type.Literal("added")], { description: "`added`: the host was new and its key was recorded in known_hosts now." }),
  file: Type.String({ description: "The known_hosts file." }),
}, { $id: "HostKeyNotice" });
export type HostKeyNotice = Static<typeof HostKeyNotice>;

/** Answer to a create or update: the profile as stored and what the checks did. */
export const ProfileChange = Type.Object({
  profile: Profile,
  notices: Type.Array(Type.String(), { description: "What the checks did, e.g. a folder created or a host key recorded." }),
  hostKey: Type.Optional(HostKeyNotice),
}, { $id: "ProfileChange" });
export type ProfileChange = Static<typeof ProfileChange>;

/** Error codes of the profile routes, beyond `invalid_request`, `not_found` and `conflict`. */
export const PROFILE_ERROR_CODES = [
  "profiles_file_invalid",
  "no_profiles",
  "default_profile_required",
  "local_dir_failed",
  "ssh_unreachable",
  "ssh_auth_failed",
  "ssh_host_key_changed",
  "ssh_host_key_unknown",
  "ssh_failed",
  "remote_check_failed",
] as const;
