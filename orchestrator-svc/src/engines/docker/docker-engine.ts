import { chownSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute } from "node:path";
import { shellJoin } from "@svc/platform/shell";
import { runtimeContainerUser, type Task } from "@svc/contracts";
import type { Engine, EngineCapabilities, ImageStore, LaunchSpec, Observation, Submitted } from "../engine";
import { EngineError } from "../engine-error";
import { DockerApi, DockerError } from "./docker-api";
import { ApiKeyFiles } from "./api-key-files";
import { batchContainerConfig } from "./batch-container";
import { containerConfig, dockerRunWords, LABELS, type DockerNetwork, type DockerOptions } from "./container-config";
import { DockerImages } from "./docker-images";
import { demultiplex } from "./log-frames";
import { NetworkMode } from "./network-mode";

interface ContainerSummary {
  Id: string;
  State: string;
  Labels: Record<string, string>;
}

interface ContainerInspect {
  State: { Status: string; ExitCode: number; OOMKilled: boolean; Error: string };
  Config: { Labels: Record<string, string> | null };
}

const REASON_LOG_LINES = 20;

export interface DockerEngineOptions {
  /** Identifies this svc home folder, so two managers never touch each other's containers. */
  homeLabel: string;
  /** Where services' API key files are kept (see ApiKeyFiles). */
  keysDir: string;
  /** Fixed network mode; default: published ports when the Engine has a bridge network, else host networking. */
  network?: DockerNetwork;
  /** `uid:gid` servers run as; default svc's own, or a stand-in for root (runtimeContainerUser). */
  user?: string;
  /** A free TCP port on this machine: each service's server gets one. */
  freePort(): Promise<number>;
  /** The task whose project image an image is, if it is one svc can build. */
  projectTask(image: string): Task | undefined;
  /** The project image that serves a task (what `svc image build` builds). */
  projectImage(task: Task): string;
}

/** The input folder a speech service reads `audio_path` from: an absolute path, created when missing. */
function ensureInputDir(path: string) {
  if (!isAbsolute(path)) throw new EngineError("invalid", "invalid_request", `--input-dir ${JSON.stringify(path)}: give an absolute path.`);
  try {
    mkdirSync(path, { recursive: true });
  } catch (error) {
    throw new EngineError("invalid", "invalid_request", `--input-dir ${path} cannot be created: ${(error as Error).message}`);
  }
}

/**
 * Runs each service as a container through the Docker Engine API, on a free port of this machine;
 * builds a missing project image first. Keeps the images itself (the ImageStore ability).
 */
export class DockerEngine implements Engine, ImageStore {
  readonly kind = "docker" as const;
  readonly capabilities: EngineCapabilities = { followsLogs: true, tunnels: false, watches: true, dataPaths: "this-machine", slurmJobOptions: false, runsImages: true };
  /** This machine's images (the Apptainer runtime sends local ones to clusters). */
  readonly images: DockerImages;
  private readonly keys: ApiKeyFiles;
  readonly network: NetworkMode;
  private readonly user: string;

  constructor(
    private readonly api: DockerApi,
    private readonly options: DockerEngineOptions,
  ) {
    this.images = new DockerImages(api, options.projectTask, options.projectImage);
    this.user = options.user ?? runtimeContainerUser(process.getuid?.() ?? 0, process.getgid?.() ?? 0);
    this.keys = new ApiKeyFiles(options.keysDir, this.user);
    this.network = new NetworkMode(api, options.network);
  }

  private async containerOptions(): Promise<DockerOptions> {
    return { network: await this.network.get(), homeLabel: this.options.homeLabel, user: this.user };
  }

  async render(spec: LaunchSpec): Promise<string> {
    if (spec.inputDir) ensureInputDir(spec.inputDir);
    if (spec.batch) return shellJoin(dockerRunWords(batchContainerConfig(spec, await this.containerOptions())));
    const keyFile = spec.apiKey === undefined ? undefined : this.keys.path(spec.serviceId);
    return shellJoin(dockerRunWords(containerConfig(spec, await this.options.freePort(), await this.containerOptions(), keyFile)));
  }

  image(image: string) {
    return this.images.image(image);
  }

  build(task: Task) {
    return this.images.build(task);
  }

  builds() {
    return this.images.builds();
  }

  /**
   * A batch job's written folders, created when missing; when svc runs as root its containers run
   * as a stand-in user (runtimeContainerUser), who is given the folder and its state folder.
   */
  private prepareBatchFolders(spec: LaunchSpec) {
    const batch = spec.batch!;
    const [uid, gid] = this.user.split(":").map(Number);
    for (const folder of [...batch.writes, batch.stateDir]) {
      if (!isAbsolute(folder)) throw new EngineError("invalid", "invalid_request", `${folder}: give an absolute path.`);
      try {
        mkdirSync(folder, { recursive: true });
        if (process.getuid?.() === 0) chownSync(folder, uid, gid);
      } catch (error) {
        throw new EngineError("invalid", "invalid_request", `${folder} cannot be made ready for the job: ${(error as Error).message}`);
      }
    }
  }

  async submit(spec: LaunchSpec): Promise<Submitted> {
    if (spec.inputDir) ensureInputDir(spec.inputDir);
    if (spec.batch) return this.submitBatch(spec);
    const notes = await this.images.ensure(spec.image);
    const port = await this.options.freePort();
    const options = await this.containerOptions();
    const keyFile = spec.apiKey === undefined ? undefined : this.keys.write(spec.serviceId, spec.apiKey);
    const config = containerConfig(spec, port, options, keyFile);
    let created: { Id: string };
    try {
      created = await this.api.json<{ Id: string }>("POST", `/containers/create?name=${encodeURIComponent(config.name)}`, config.body);
    } catch (error) {
      this.keys.remove(spec.serviceId);
      throw error;
    }
    try {
      await this.api.raw("POST", `/containers/${created.Id}/start`);
    } catch (error) {
      await this.release(created.Id);
      throw error;
    }
    return { handle: created.Id, host: "127.0.0.1", port, notes };
  }

  private async submitBatch(spec: LaunchSpec): Promise<Submitted> {
    this.prepareBatchFolders(spec);
    const notes = await this.images.ensure(spec.image);
    const config = batchContainerConfig(spec, await this.containerOptions());
    const created = await this.api.json<{ Id: string }>("POST", `/containers/create?name=${encodeURIComponent(config.name)}`, config.body);
    try {
      await this.api.raw("POST", `/containers/${created.Id}/start`);
    } catch (error) {
      await this.release(created.Id);
      throw error;
    }
    return { handle: created.Id, host: null, port: null, notes };
  }

  async putJobFile(path: string, data: Uint8Array): Promise<void> {
    if (!isAbsolute(path)) throw new EngineError("invalid", "invalid_request", `${path}: give an absolute path.`);
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(`${path}.part`, data, { mode: 0o644 });
      renameSync(`${path}.part`, path);
    } catch (error) {
      throw new EngineError("failed", "engine_error", `Could not write ${path}: ${(error as Error).message}`);
    }
  }

  async readJobFile(_handle: string, path: string): Promise<string | undefined> {
    try {
      return readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
  }

  private async containers(): Promise<ContainerSummary[]> {
    const filters = encodeURIComponent(JSON.stringify({ label: [`${LABELS.home}=${this.options.homeLabel}`] }));
    return this.api.json<ContainerSummary[]>("GET", `/containers/json?all=1&filters=${filters}`);
  }

  async adopt(serviceIds: string[]): Promise<Map<string, string>> {
    const wanted = new Set(serviceIds);
    const found = new Map<string, string>();
    for (const container of await this.containers()) {
      const id = container.Labels[LABELS.serviceId];
      if (id && wanted.has(id)) found.set(id, container.Id);
    }
    return found;
  }

  /** One list call for all of this home's containers; an inspect and a log tail only for those that exited. */
  async inspect(handles: string[]): Promise<Map<string, Observation>> {
    const containers = await this.containers();
    const byId = new Map(containers.map((c) => [c.Id, c]));
    const result = new Map<string, Observation>();
    for (const handle of handles) {
      const container = byId.get(handle);
      const progressFile = container?.Labels[LABELS.progress];
      const progress = progressFile ? await this.readJobFile(handle, progressFile) : undefined;
      if (!container) result.set(handle, { phase: "missing" });
      else if (container.State === "created") result.set(handle, { phase: "queued", reason: "container created, not started yet" });
      else if (container.State === "running" || container.State === "restarting" || container.State === "paused") {
        const port = Number(container.Labels[LABELS.port]);
        result.set(handle, { phase: "running", host: "127.0.0.1", port: Number.isInteger(port) ? port : null });
      } else result.set(handle, await this.exited(handle));
      if (progress !== undefined) result.set(handle, { ...result.get(handle)!, progress });
    }
    return result;
  }

  private async exited(handle: string): Promise<Observation> {
    try {
      const { State } = await this.api.json<ContainerInspect>("GET", `/containers/${handle}/json`);
      const cause = State.OOMKilled ? " (killed: out of memory)" : State.Error ? ` (${State.Error})` : "";
      const tail = (await this.tail(handle, REASON_LOG_LINES)).trim();
      if (State.ExitCode === 0 && !State.OOMKilled) return { phase: "exited", outcome: "completed", reason: `exited with code 0${tail ? `; last output:\n${tail}` : ""}` };
      return { phase: "exited", outcome: "failed", reason: `exited with code ${State.ExitCode}${cause}${tail ? `; last output:\n${tail}` : ""}` };
    } catch (error) {
      if (error instanceof DockerError && error.engineStatus === 404) return { phase: "missing" };
      throw error;
    }
  }

  /** The last lines of output, or "" when Docker cannot give them (e.g. the container is being removed). */
  private async tail(handle: string, lines: number): Promise<string> {
    try {
      return await new Response(await this.logs(handle, { follow: false, tail: lines })).text();
    } catch {
      return "";
    }
  }

  async stop(handle: string): Promise<void> {
    try {
      await this.api.raw("POST", `/containers/${handle}/stop?t=10`);
    } catch (error) {
      if (!(error instanceof DockerError && (error.engineStatus === 304 || error.engineStatus === 404))) throw error;
    }
  }

  /** Removes the container and its API key file. */
  async release(handle: string): Promise<void> {
    try {
      const { Config } = await this.api.json<ContainerInspect>("GET", `/containers/${handle}/json`);
      const serviceId = Config.Labels?.[LABELS.serviceId];
      await this.api.raw("DELETE", `/containers/${handle}?force=1`);
      if (serviceId) this.keys.remove(serviceId);
    } catch (error) {
      if (!(error instanceof DockerError && error.engineStatus === 404)) throw error;
    }
  }

  async logs(handle: string, options: { follow: boolean; tail?: number }): Promise<ReadableStream<Uint8Array>> {
    const query = `stdout=1&stderr=1&follow=${options.follow ? 1 : 0}&tail=${options.tail ?? "all"}`;
    const response = await this.api.raw("GET", `/containers/${handle}/logs?${query}`);
    return demultiplex(response.body!);
  }

  /** Follows the Engine's event stream for this home's containers; reconnects after a second if it drops. */
  watch(onChange: (handle: string) => void): () => void {
    const controller = new AbortController();
    const filters = encodeURIComponent(JSON.stringify({ type: ["container"], label: [`${LABELS.home}=${this.options.homeLabel}`] }));
    const follow = async () => {
      while (!controller.signal.aborted) {
        try {
          const response = await this.api.raw("GET", `/events?filters=${filters}`, undefined, controller.signal);
          let pending = "";
          const decoder = new TextDecoder();
          for await (const chunk of response.body! as unknown as AsyncIterable<Uint8Array>) {
            pending += decoder.decode(chunk, { stream: true });
            let newline = pending.indexOf("\n");
            while (newline >= 0) {
              const line = pending.slice(0, newline);
              pending = pending.slice(newline + 1);
              const id = (JSON.parse(line) as { id?: string; Actor?: { ID?: string } }).Actor?.ID;
              if (id) onChange(id);
              newline = pending.indexOf("\n");
            }
          }
        } catch {
          // the engine went away or the stream broke: try again shortly
        }
        if (!controller.signal.aborted) await Bun.sleep(1000);
      }
    };
    void follow();
    return () => controller.abort();
  }
}
