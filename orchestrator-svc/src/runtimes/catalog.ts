import { ApiError } from "@svc/platform";
import type { Task } from "@svc/contracts";
import type { Engine } from "../engines/engine";
import { DockerEngine } from "../engines/docker/docker-engine";
import type { RuntimeKind } from "../launch/runtime-args";
import { ImageBuilder } from "../images/builder";

export const VLLM_IMAGE = "vllm/vllm-openai:latest";
const PROJECT_PREFIX = "svc-";

/**
 * Which image serves which task: the project's CPU runtimes (built locally, no registry) or vLLM's
 * OpenAI server for GPUs. Environment variables override each choice.
 */
export class RuntimeCatalog {
  constructor(
    private readonly images: Record<Task, string>,
    private readonly vllmImage: string,
    readonly cpuTextGeneration: RuntimeKind,
    /** Builds the project's images and keeps their progress (GET /api/images/builds). */
    readonly builder = new ImageBuilder(),
  ) {}

  static fromEnv(env: Record<string, string | undefined>): RuntimeCatalog {
    return new RuntimeCatalog(
      {
        "text-generation": env.SVC_RUNTIME_IMAGE_TEXT_GENERATION || "svc-text-generation:latest",
        "speech-recognition": env.SVC_RUNTIME_IMAGE_SPEECH_RECOGNITION || "svc-speech-recognition:latest",
      },
      env.SVC_TEXT_GENERATION_IMAGE || VLLM_IMAGE,
      env.SVC_TEXT_GENERATION_ENGINE === "vllm" ? "vllm" : "svc",
    );
  }

  image(task: Task, kind: RuntimeKind): string {
    return kind === "vllm" ? this.vllmImage : this.images[task];
  }

  /** The project's own runtime images, with the task each serves. */
  projectImages(): { task: Task; image: string }[] {
    return (Object.entries(this.images) as [Task, string][]).map(([task, image]) => ({ task, image }));
  }

  /** Builds a missing project image (and says so); a missing third-party image is an error saying how to get it. */
  async ensure(engine: Engine, image: string): Promise<string[]> {
    if (!(engine instanceof DockerEngine) || (await engine.imagePresent(image))) return [];
    const project = this.projectImages().find((entry) => entry.image === image && image.startsWith(PROJECT_PREFIX));
    if (!project) {
      throw new ApiError(400, "image_missing", `The image ${image} is not on this machine: pull it (docker pull ${image}) or point SVC_TEXT_GENERATION_IMAGE at a local image.`);
    }
    await this.build(project.task);
    return [`The runtime image ${image} was missing, so it was built first.`];
  }

  /** Builds the project's image for `task`, under the name this catalog uses for it. */
  build(task: Task): Promise<string> {
    return this.builder.build(task, this.images[task]);
  }
}
