import { dirname } from "node:path";
import { serverOf } from "../api-key";
import type { LaunchSpec } from "../engine";
import { EngineError } from "../engine-error";
import { containerConfig, LABELS, type ContainerConfig, type DockerOptions } from "./container-config";

/** Where the project's runtime images keep Bun and the runtime tree (images/<runtime>/Dockerfile). */
const IMAGE_BUN = "/usr/local/bin/bun";
const DRIVER_MAIN = "runtimes/batch-driver/src/main.ts";

/** The progress file of a batch job run on Docker (on this machine, in its state folder). */
export const dockerProgressFile = (spec: Pick<LaunchSpec, "batch">) => `${spec.batch!.stateDir}/progress.json`;

/**
 * A batch job's container: the same image and hardening as a service's, but its entry point is
 * svc's batch driver, which starts the server inside the container on loopback (so no port is
 * published) and reaches nothing else. Inputs are mounted read-only and outputs read-write, each
 * at its own path, so the paths in its state file are the ones the user gave.
 */
export function batchContainerConfig(spec: LaunchSpec, options: DockerOptions): ContainerConfig {
  const batch = spec.batch!;
  // The driver is in svc's runtime images, not in vLLM's: on a cluster it runs from the runtime bundle beside vLLM.
  if (serverOf(spec.image) !== "svc") {
    throw new EngineError("invalid", "batch_needs_svc_runtime", "batch jobs on this machine run svc's CPU runtimes: vLLM's and SGLang's images have no batch driver. Drop --gres, or run the job on a slurm profile, where it runs beside vLLM.");
  }
  const base = containerConfig({ ...spec, inputDir: undefined, batch: undefined }, 0, options);
  const progressFile = dockerProgressFile(spec);
  const mounts = [
    ...base.body.HostConfig.Mounts,
    ...batch.reads.map((path) => ({ Type: "bind" as const, Source: path, Target: path, ReadOnly: true })),
    ...batch.writes.map((path) => ({ Type: "bind" as const, Source: path, Target: path, ReadOnly: false })),
  ];
  const { [LABELS.port]: _port, ...labels } = base.body.Labels;
  const { PortBindings: _bindings, ...hostConfig } = base.body.HostConfig;
  const { ExposedPorts: _exposed, ...body } = base.body;
  return {
    name: base.name,
    body: {
      ...body,
      Entrypoint: [IMAGE_BUN, DRIVER_MAIN],
      Cmd: [...batch.args, "--progress-file", progressFile, "--", IMAGE_BUN, `runtimes/${spec.task}/src/main.ts`, "--model", spec.modelDir, ...spec.args],
      Labels: { ...labels, [LABELS.progress]: progressFile },
      HostConfig: { ...hostConfig, NetworkMode: options.network === "host" ? "host" : "default", Mounts: mounts },
    },
  };
}

/** The folder a written path needs (for a results file, the folder it is in). */
export const writableFolder = (path: string, isFile: boolean) => (isFile ? dirname(path) : path);
