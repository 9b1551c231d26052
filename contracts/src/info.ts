import { Type, type Static } from "@sinclair/typebox";
import { ENGINE_KINDS, literalUnion } from "./services";
import { ImageChoice } from "./images";

export const DockerNetwork = Type.Union([literalUnion(["publish", "host"]), Type.Null()], {
  description:
    "How Docker services are reached: `publish` (their own network, the port published on 127.0.0.1), `host` (host networking, the Engine has no bridge network), null while the Docker Engine does not answer.",
});

export const AppInfo = Type.Object({
  name: Type.Literal("svc"),
  version: Type.String(),
  host: Type.String(),
  port: Type.Integer(),
  homeDir: Type.String(),
  debug: Type.Boolean({ description: "Debug mode: when on, no authentication is required." }),
  dockerNetwork: DockerNetwork,
  images: Type.Array(ImageChoice, { description: "The images services run, each pinned by svc start's environment or svc's default; `svc run --image` replaces one for a service." }),
}, { $id: "AppInfo" });
export type AppInfo = Static<typeof AppInfo>;

/** How Docker services are reached, in words (the UI's overview and `svc info`). */
export function dockerNetworkWords(network: AppInfo["dockerNetwork"]): string {
  if (network === "publish") return "own network, ports published on 127.0.0.1";
  if (network === "host") return "host networking, servers bound to 127.0.0.1 (the Docker Engine has no bridge network)";
  return "unknown (the Docker Engine does not answer)";
}

/**
 * Whether an engine can be reached: the Docker Engine (every local profile's services), and each
 * slurm profile's connection to its cluster. Checked in the background, so reading it never waits.
 */
export const EngineReach = Type.Object({
  engine: literalUnion(ENGINE_KINDS),
  profile: Type.Union([Type.String(), Type.Null()], { description: "The slurm profile; null for the Docker Engine (shared by all local profiles)." }),
  target: Type.String({ description: "What is reached: the Docker socket, or user@host:port of the cluster." }),
  state: literalUnion(["reachable", "unreachable", "unknown"], { description: "`unknown` until the first check has ended." }),
  detail: Type.String({ description: "What the check found, e.g. why the engine is not reachable." }),
  checkedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
}, { $id: "EngineReach" });
export type EngineReach = Static<typeof EngineReach>;

/** What orchestrator-svc tells the gateway for /api/info and /api/health. */
export type ServiceFacts = Pick<AppInfo, "dockerNetwork"> & { engines: EngineReach[] };

export const ComponentState = Type.Union([Type.Literal("up"), Type.Literal("down")]);

export const ComponentHealth = Type.Object({
  name: Type.String(),
  state: ComponentState,
  latencyMs: Type.Union([Type.Number(), Type.Null()]),
  detail: Type.Optional(Type.String()),
}, { $id: "ComponentHealth" });
export type ComponentHealth = Static<typeof ComponentHealth>;

export const HealthReport = Type.Object({
  status: Type.Union([Type.Literal("ok"), Type.Literal("degraded")], { description: "Whether svc's own parts answer; an engine that cannot be reached does not make it degraded (see engines)." }),
  services: Type.Array(ComponentHealth),
  engines: Type.Array(EngineReach, { description: "Each engine's reachability as last checked (empty while orchestrator-svc does not answer)." }),
}, { $id: "HealthReport" });
export type HealthReport = Static<typeof HealthReport>;

const open = { additionalProperties: true };

/** What GET /api/openapi.json answers: an OpenAPI 3.1 document (the rest of its shape is OpenAPI's own). */
export const OpenApiDocument = Type.Object(
  {
    openapi: Type.String({ pattern: "^3\\.1\\.\\d+$" }),
    info: Type.Object({ title: Type.String(), version: Type.String() }, open),
    paths: Type.Record(Type.String(), Type.Object({}, open)),
  },
  { ...open, description: "The OpenAPI 3.1 document of the REST API." },
);
export type OpenApiDocument = Static<typeof OpenApiDocument>;
