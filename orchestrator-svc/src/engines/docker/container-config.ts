import type { LaunchSpec } from "../engine";
import { modelMount } from "../model-folder";

export const LABELS = {
  serviceId: "svc.service-id",
  home: "svc.home",
  name: "svc.name",
  port: "svc.port",
} as const;

export const INPUT_MOUNT = "/inputs";
/** Port the server listens on inside its container when ports are published instead of host networking. */
const PUBLISHED_CONTAINER_PORT = 8000;

export interface DockerOptions {
  /** `host`: host networking, the server binds 127.0.0.1 (default). `publish`: own network, port published on 127.0.0.1. */
  network: "host" | "publish";
  /** Identifies this svc home folder, so two managers never touch each other's containers. */
  homeLabel: string;
}

export interface ContainerConfig {
  name: string;
  body: {
    Image: string;
    Cmd: string[];
    Labels: Record<string, string>;
    ExposedPorts?: Record<string, object>;
    HostConfig: {
      NetworkMode: string;
      Mounts: { Type: "bind"; Source: string; Target: string; ReadOnly: boolean }[];
      /** An init process as PID 1 forwards SIGTERM, so `stop` ends the server at once instead of after the grace period. */
      Init: boolean;
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

/** The one description of a service's container, used by both submit and the dry-run rendering. */
export function containerConfig(spec: LaunchSpec, port: number, options: DockerOptions): ContainerConfig {
  const hostNetwork = options.network === "host";
  const listenPort = hostNetwork ? port : PUBLISHED_CONTAINER_PORT;
  const mounts = [{ Type: "bind" as const, Source: modelMount(spec.modelDir), Target: modelMount(spec.modelDir), ReadOnly: true }];
  const cmd = ["--model", spec.modelDir, "--host", hostNetwork ? "127.0.0.1" : "0.0.0.0", "--port", String(listenPort)];
  if (spec.inputDir) {
    mounts.push({ Type: "bind", Source: spec.inputDir, Target: INPUT_MOUNT, ReadOnly: true });
    // The runtime maps absolute host paths in audio_path to the mount, so callers use the path they know.
    cmd.push("--input-dir", INPUT_MOUNT, "--input-host-dir", spec.inputDir);
  }
  cmd.push(...spec.args);
  const gpus = spec.job.gres ?? 0;
  return {
    name: containerName(spec.serviceId),
    body: {
      Image: spec.image,
      Cmd: cmd,
      Labels: {
        [LABELS.serviceId]: spec.serviceId,
        [LABELS.home]: options.homeLabel,
        [LABELS.name]: spec.name,
        [LABELS.port]: String(port),
      },
      ...(hostNetwork ? {} : { ExposedPorts: { [`${listenPort}/tcp`]: {} } }),
      HostConfig: {
        NetworkMode: hostNetwork ? "host" : "default",
        Init: true,
        Mounts: mounts,
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
  const words = ["docker", "run", "--detach", "--init", "--name", config.name];
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
  words.push(body.Image, ...body.Cmd);
  return words;
}
