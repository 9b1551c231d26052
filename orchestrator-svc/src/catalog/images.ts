import type { InferenceServer, Task } from "@svc/contracts";

export const VLLM_IMAGE = "vllm/vllm-openai:latest";
const PROJECT_PREFIX = "svc-";
const DEFAULT_IMAGES: Record<Task, string> = { "text-generation": "svc-text-generation:latest", "speech-recognition": "svc-speech-recognition:latest" };
const repositoryOf = (image: string) => image.replace(/[:@].*$/, "");

/**
 * Which container image serves which task: the project's CPU runtimes (built locally, no registry)
 * or vLLM's OpenAI server for GPUs. Environment variables override each choice.
 */
export class ImageCatalog {
  constructor(
    private readonly images: Record<Task, string>,
    private readonly vllmImage: string,
    /** The inference server for text generation without GPUs (`svc`, or `vllm` when configured). */
    readonly cpuTextGeneration: InferenceServer,
  ) {}

  static fromEnv(env: Record<string, string | undefined>): ImageCatalog {
    return new ImageCatalog(
      {
        "text-generation": env.SVC_RUNTIME_IMAGE_TEXT_GENERATION || DEFAULT_IMAGES["text-generation"],
        "speech-recognition": env.SVC_RUNTIME_IMAGE_SPEECH_RECOGNITION || DEFAULT_IMAGES["speech-recognition"],
      },
      env.SVC_TEXT_GENERATION_IMAGE || VLLM_IMAGE,
      env.SVC_TEXT_GENERATION_ENGINE === "vllm" ? "vllm" : "svc",
    );
  }

  image(task: Task, server: InferenceServer): string {
    return server === "vllm" ? this.vllmImage : this.images[task];
  }

  /** Every image svc may run, with the task and server of each. */
  entries(): { task: Task; engine: InferenceServer; image: string }[] {
    return [
      ...this.projectImages().map(({ task, image }) => ({ task, engine: "svc" as const, image })),
      { task: "text-generation", engine: "vllm", image: this.vllmImage },
    ];
  }

  /** Whether `image` is one of the project's runtime images (any tag), not a replacement set by SVC_RUNTIME_IMAGE_*. */
  isProjectRuntime(image: string): boolean {
    return Object.values(DEFAULT_IMAGES).some((projectImage) => repositoryOf(projectImage) === repositoryOf(image));
  }

  /** The project's own runtime images, with the task each serves. */
  projectImages(): { task: Task; image: string }[] {
    return (Object.entries(this.images) as [Task, string][]).map(([task, image]) => ({ task, image }));
  }

  /** The task whose project image this is (one svc can build), if it is one. */
  projectTask(image: string): Task | undefined {
    return image.startsWith(PROJECT_PREFIX) ? this.projectImages().find((entry) => entry.image === image)?.task : undefined;
  }
}
