import type { ImageBuild, Task } from "@svc/contracts";
import type { ImageStore } from "../engine";
import type { LocalImages } from "../slurm/apptainer-images";
import { EngineError } from "../engine-error";
import { DockerApi, DockerError } from "./docker-api";
import { ImageBuilder } from "./image-builder";

/**
 * The container images on this machine's Docker Engine, and the project's own ones built here
 * without any registry (images/build.ts): what the Docker engine prepares before it starts a service.
 */
export class DockerImages implements ImageStore, LocalImages {
  constructor(
    private readonly api: DockerApi,
    /** The task whose project image an image is, if it is one svc can build. */
    private readonly projectTask: (image: string) => Task | undefined,
    /** The project image that serves a task. */
    private readonly projectImage: (task: Task) => string,
    private readonly builder = new ImageBuilder(),
  ) {}

  async image(image: string): Promise<{ sizeBytes: number; createdAt: string } | undefined> {
    try {
      const found = await this.api.json<{ Size: number; Created: string }>("GET", `/images/${encodeURIComponent(image)}/json`);
      return { sizeBytes: found.Size, createdAt: found.Created };
    } catch (error) {
      if (error instanceof DockerError && error.engineStatus === 404) return undefined;
      throw error;
    }
  }

  /** The image's labels, or undefined when Docker does not have it (or does not answer). */
  async labels(image: string): Promise<Record<string, string> | undefined> {
    try {
      return (await this.api.json<{ Config: { Labels: Record<string, string> | null } | null }>("GET", `/images/${encodeURIComponent(image)}/json`)).Config?.Labels ?? {};
    } catch {
      return undefined;
    }
  }

  async localId(image: string): Promise<string | undefined> {
    try {
      return (await this.api.json<{ Id: string }>("GET", `/images/${encodeURIComponent(image)}/json`)).Id;
    } catch {
      return undefined;
    }
  }

  buildable(image: string): boolean {
    return this.projectTask(image) !== undefined;
  }

  /** `docker save`: the image as one tar stream, straight from the Engine API. */
  async save(image: string): Promise<ReadableStream<Uint8Array>> {
    const response = await this.api.raw("GET", `/images/${encodeURIComponent(image)}/get`);
    return response.body!;
  }

  /** Builds a missing project image (and says so); a missing third-party image is an error saying how to get it. */
  async ensure(image: string): Promise<string[]> {
    if ((await this.image(image)) !== undefined) return [];
    const task = this.projectTask(image);
    if (!task) {
      throw new EngineError("invalid", "image_missing", `The image ${image} is not on this machine: pull it (docker pull ${image}) or give a local image (svc run --image, or SVC_TEXT_GENERATION_IMAGE, SVC_SPEECH_RECOGNITION_IMAGE, SVC_VLLM_IMAGE for the app).`);
    }
    await this.builder.build(task, image);
    return [`The runtime image ${image} was missing, so it was built first.`];
  }

  async build(task: Task): Promise<void> {
    await this.builder.build(task, this.projectImage(task));
  }

  /** Recent builds with their output, newest first. */
  builds(): ImageBuild[] {
    return this.builder.list();
  }
}
