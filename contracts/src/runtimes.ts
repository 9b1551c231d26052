import { Type, type Static } from "@sinclair/typebox";
import { ErrorBody } from "./error-body";
import { literalUnion, Task } from "./services";

/**
 * The svc runtime on a slurm profile's cluster (`svc runtime install|ls|rm`): a self-contained
 * bundle — Bun for the cluster's CPU and the runtime tree with its native modules — under
 * `<home>/runtime/<version>/`, where the version is a content hash of the bundle.
 */

const VERSION = "^[0-9a-f]{16}$";
export const RuntimeVersionId = Type.String({ pattern: VERSION, description: "Content hash of the bundle (16 hex digits)." });

export const RuntimeVersion = Type.Object({
  version: RuntimeVersionId,
  arch: Type.String({ description: "CPU architecture of the bundle: x64 or arm64." }),
  tasks: Type.Array(Type.String(), { description: "The tasks its runtime tree serves." }),
  sizeBytes: Type.Integer({ description: "Disk use on the cluster." }),
  installedAt: Type.String({ format: "date-time" }),
  current: Type.Boolean({ description: "The version this svc installs and starts jobs with." }),
  services: Type.Array(Type.String(), { description: "Live services of this svc whose job runs this version." }),
});
export type RuntimeVersion = Static<typeof RuntimeVersion>;

export const UnavailableTask = Type.Object({ task: Task, reason: Type.String() });
export type UnavailableTask = Static<typeof UnavailableTask>;

/** GET /api/runtimes?profile=: what is installed on the profile's cluster, and which version svc would use. */
export const RuntimeList = Type.Object({
  profile: Type.String(),
  host: Type.String(),
  machine: Type.String({ description: "`uname -m` of the cluster's login node." }),
  current: RuntimeVersionId,
  unavailable: Type.Array(UnavailableTask, { description: "Tasks the bundle for this CPU cannot carry, and why." }),
  versions: Type.Array(RuntimeVersion),
});
export type RuntimeList = Static<typeof RuntimeList>;

export const RUNTIME_INSTALL_STATES = ["running", "done", "failed"] as const;
export const RuntimeInstallState = literalUnion(RUNTIME_INSTALL_STATES);
export type RuntimeInstallState = (typeof RUNTIME_INSTALL_STATES)[number];

/** An install of the runtime on a cluster, with its progress (`svc runtime install`, or a `svc run` that found none). */
export const RuntimeInstall = Type.Object({
  id: Type.String(),
  profile: Type.String(),
  host: Type.String(),
  version: RuntimeVersionId,
  arch: Type.String(),
  state: RuntimeInstallState,
  alreadyInstalled: Type.Boolean({ description: "The version was there already: nothing was sent." }),
  bytesTotal: Type.Integer({ description: "Size of the bundle's tar stream, uncompressed." }),
  bytesDone: Type.Integer({ description: "How much of it has been sent." }),
  bytesSent: Type.Integer({ description: "Bytes that went over the connection (compressed)." }),
  startedAt: Type.String({ format: "date-time" }),
  finishedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  notes: Type.Array(Type.String()),
  error: Type.Optional(ErrorBody),
});
export type RuntimeInstall = Static<typeof RuntimeInstall>;

export const RuntimeInstallRequest = Type.Object(
  { profile: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: "A slurm profile; default: the default profile." })) },
  { additionalProperties: false },
);
export type RuntimeInstallRequest = Static<typeof RuntimeInstallRequest>;

/** DELETE /api/runtimes: the versions removed. */
export const RuntimeRemoval = Type.Object({ profile: Type.String(), removed: Type.Array(RuntimeVersionId) });
export type RuntimeRemoval = Static<typeof RuntimeRemoval>;

export const isRuntimeVersionId = (text: string) => new RegExp(VERSION).test(text);
