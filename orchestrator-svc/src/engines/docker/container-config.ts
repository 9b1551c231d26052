import { RUNTIME_CONTAINER } from "@svc/contracts";
import { API_KEY_VARIABLE, serverOf } from "../api-key";
import type { LaunchSpec } from "../engine";
import { modelMount } from "../model-folder";
import { GPU_SERVERS, SGLANG_WITH_KEY, serverEnvironment, serverProgram } from "../gpu-servers";

export const LABELS = {
  serviceId: "svc.service-id",
  home: "svc.home",
  name: "svc.name",
  port: "svc.port",
  /** A batch job's progress file on this machine. */
  progress: "svc.progress",
  gracePeriod: "svc.grace-period",
} as const;

export const INPUT_MOUNT = "/inputs";
/** Where a service's API key file is mounted (read-only) in its container. */
export const API_KEY_MOUNT = "/run/secrets/svc-api-key";
/** vLLM's image starts its server itself and takes the key from the environment: a shell sets it from the mounted file first. */
const VLLM_WITH_KEY_FILE = ["/bin/sh", "-c", `${API_KEY_VARIABLE.vllm}="$(cat ${API_KEY_MOUNT})" && export ${API_KEY_VARIABLE.vllm} && exec python3 -m vllm.entrypoints.openai.api_server "$@"`, "vllm"];
/** SGLang's image has no server entry point: its server module runs, with the key (when there is one) read from the mounted file into SGLANG_WITH_KEY's variable. */
const SGLANG_WITH_KEY_FILE = ["/bin/sh", "-c", `${API_KEY_VARIABLE.sglang}="$(cat ${API_KEY_MOUNT})" && export ${API_KEY_VARIABLE.sglang} && exec python3 -c "$0" "$@"`, SGLANG_WITH_KEY];
/** Port the server listens on inside its container when ports are published instead of host networking. */
const PUBLISHED_CONTAINER_PORT = 8000;

export type DockerNetwork = "host" | "publish";

export interface DockerOptions {
  /** `publish`: the container's own network, its port published on 127.0.0.1. `host`: host networking, the server binds 127.0.0.1. */
  network: DockerNetwork;
  /** Identifies this svc home folder, so two managers never touch each other's containers. */
  homeLabel: string;
  /** `uid:gid` the server runs as: never root (see runtimeContainerUser). */
  user: string;
}

export interface ContainerConfig {
  name: string;
  body: {
    Image: string;
    Entrypoint?: string[];
    Cmd: string[];
    User: string;
    Env: string[];
    Labels: Record<string, string>;
    ExposedPorts?: Record<string, object>;
    HostConfig: {
      NetworkMode: string;
      Mounts: { Type: "bind"; Source: string; Target: string; ReadOnly: boolean }[];
      /** An init process as PID 1 forwards SIGTERM, so `stop` ends the server at once instead of after the grace period. */
      Init: boolean;
      CapDrop: string[];
      SecurityOpt: string[];
      PidsLimit: number;
      ReadonlyRootfs: boolean;
      Tmpfs: Record<string, string>;
      PortBindings?: Record<string, { HostIp: string; HostPort: string }[]>;
      Memory?: number;
      DeviceRequests?: { Driver: string; Count: number; Capabilities: string[][] }[];
      RestartPolicy: { Name: string };
    };
  };
}

export const containerName = (serviceId: string) => `svc-${serviceId}`;

/** One field of `--mount`'s comma-separated value, quoted the way Docker's CSV parser reads it. */
const mountField = (field: string) => (/[",\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field);

/**
 * The one description of a service's container, used by both submit and the dry-run rendering:
 * hardened as RUNTIME_CONTAINER says, with the model (and input folder) mounted read-only and the
 * API key, when there is one, as a read-only file (`apiKeyFile` on this machine).
 */
export function containerConfig(spec: LaunchSpec, port: number, options: DockerOptions, apiKeyFile?: string): ContainerConfig {
  const hostNetwork = options.network === "host";
  const listenPort = hostNetwork ? port : PUBLISHED_CONTAINER_PORT;
  const mounts = [{ Type: "bind" as const, Source: modelMount(spec.modelDir), Target: modelMount(spec.modelDir), ReadOnly: true }];
  const server = serverOf(spec.image);
  const modelOption = server === "svc" ? "--model" : GPU_SERVERS[server].modelOption;
  const cmd = [modelOption, spec.modelDir, "--host", hostNetwork ? "127.0.0.1" : "0.0.0.0", "--port", String(listenPort)];
  if (spec.inputDir) {
    mounts.push({ Type: "bind", Source: spec.inputDir, Target: INPUT_MOUNT, ReadOnly: true });
    // The runtime maps absolute host paths in audio_path to the mount, so callers use the path they know.
    cmd.push("--input-dir", INPUT_MOUNT, "--input-host-dir", spec.inputDir);
  }
  // `--mount`: each folder read-only at the path the user gave.
  for (const mount of spec.mounts ?? []) mounts.push({ Type: "bind", Source: mount.source, Target: mount.target, ReadOnly: true });
  if (apiKeyFile !== undefined) {
    mounts.push({ Type: "bind", Source: apiKeyFile, Target: API_KEY_MOUNT, ReadOnly: true });
    if (server === "svc") cmd.push("--api-key-file", API_KEY_MOUNT);
  }
  const entrypoint =
    server === "vllm" ? (apiKeyFile !== undefined ? VLLM_WITH_KEY_FILE : undefined) : server === "sglang" ? (apiKeyFile !== undefined ? SGLANG_WITH_KEY_FILE : serverProgram("sglang", false)) : undefined;
  cmd.push(...spec.args);
  const gpus = spec.job.gres ?? 0;
  return {
    name: containerName(spec.serviceId),
    body: {
      Image: spec.image,
      ...(entrypoint ? { Entrypoint: entrypoint } : {}),
      Cmd: cmd,
      User: options.user,
      Env: Object.entries({ ...RUNTIME_CONTAINER.env, ...serverEnvironment(server, spec.args) }).map(([name, value]) => `${name}=${value}`),
      Labels: {
        [LABELS.serviceId]: spec.serviceId,
        [LABELS.home]: options.homeLabel,
        [LABELS.name]: spec.name,
        [LABELS.port]: String(port),
        ...(spec.gracePeriod !== undefined ? { [LABELS.gracePeriod]: String(spec.gracePeriod) } : {}),
      },
      ...(hostNetwork ? {} : { ExposedPorts: { [`${listenPort}/tcp`]: {} } }),
      HostConfig: {
        NetworkMode: hostNetwork ? "host" : "default",
        Init: true,
        Mounts: mounts,
        CapDrop: [...RUNTIME_CONTAINER.capDrop],
        SecurityOpt: [...RUNTIME_CONTAINER.securityOpt],
        PidsLimit: RUNTIME_CONTAINER.pidsLimit,
        ReadonlyRootfs: true,
        Tmpfs: { ...RUNTIME_CONTAINER.tmpfs },
        ...(hostNetwork ? {} : { PortBindings: { [`${listenPort}/tcp`]: [{ HostIp: "127.0.0.1", HostPort: String(port) }] } }),
        ...(spec.job.mem ? { Memory: spec.job.mem * 1024 ** 3 } : {}),
        ...(gpus > 0 ? { DeviceRequests: [{ Driver: "nvidia", Count: gpus, Capabilities: [["gpu"]] }] } : {}),
        RestartPolicy: { Name: "no" },
      },
    },
  };
}

/** The `docker run` command line equivalent to a container config (what `--dry-run` prints). */
export function dockerRunWords(config: ContainerConfig): string[] {
  const { body } = config;
  const { HostConfig: host } = body;
  const words = ["docker", "run", "--detach", "--init", "--name", config.name, "--user", body.User];
  for (const capability of host.CapDrop) words.push("--cap-drop", capability);
  for (const option of host.SecurityOpt) words.push("--security-opt", option);
  words.push("--pids-limit", String(host.PidsLimit));
  if (host.ReadonlyRootfs) words.push("--read-only");
  for (const [path, options] of Object.entries(host.Tmpfs)) words.push("--tmpfs", `${path}:${options}`);
  for (const variable of body.Env) words.push("--env", variable);
  for (const [key, value] of Object.entries(body.Labels)) words.push("--label", `${key}=${value}`);
  if (body.HostConfig.NetworkMode === "host") words.push("--network", "host");
  for (const [port, bindings] of Object.entries(body.HostConfig.PortBindings ?? {})) {
    for (const b of bindings) words.push("--publish", `${b.HostIp}:${b.HostPort}:${port.replace("/tcp", "")}`);
  }
  for (const mount of body.HostConfig.Mounts) {
    const fields = [`type=bind`, `source=${mount.Source}`, `target=${mount.Target}`, ...(mount.ReadOnly ? ["readonly"] : [])];
    words.push("--mount", fields.map(mountField).join(","));
  }
  if (body.HostConfig.Memory) words.push("--memory", `${body.HostConfig.Memory / 1024 ** 3}g`);
  for (const request of body.HostConfig.DeviceRequests ?? []) words.push("--gpus", String(request.Count));
  // `docker run` takes one entrypoint word; the rest of it comes after the image.
  if (body.Entrypoint) words.push("--entrypoint", body.Entrypoint[0], body.Image, ...body.Entrypoint.slice(1), ...body.Cmd);
  else words.push(body.Image, ...body.Cmd);
  return words;
}
