import type { GpuEngine, InferenceServer, Task } from "@svc/contracts";
import { DEFAULT_IMAGES as DEFAULTS, loadImageChoices, type ChosenImage } from "@svc/platform/config";

export const VLLM_IMAGE = DEFAULTS.vllm;
export const SGLANG_IMAGE = DEFAULTS.sglang;
const PROJECT_PREFIX = "svc-";
const DEFAULT_IMAGES: Record<Task, string> = { "text-generation": DEFAULTS["text-generation"], "speech-recognition": DEFAULTS["speech-recognition"] };
const repositoryOf = (image: string) => image.replace(/[:@].*$/, "");
/** The label svc's image build gives each runtime image: its content tag, `svc-<task>:<hash>` (images/lib/staged-image.ts). A re-tag keeps it. */
const CONTENT_LABEL = "svc.content";
/** An image's labels, or undefined when it cannot be inspected here. */
export type ImageLabels = (image: string) => Promise<Record<string, string> | undefined>;

/**
 * Which container image serves which task: the project's CPU runtimes (built locally, no registry)
 * or vLLM's or SGLang's OpenAI server for GPUs. Environment variables pin each choice (platform/src/config/images.ts);
 * `svc run --image` replaces it for one service.
 */
export class ImageCatalog {
  constructor(
    private readonly images: Record<Task, string>,
    /** The GPU servers' images, by engine. */
    private readonly gpuImages: Record<GpuEngine, string>,
    /** The inference server for text generation without GPUs (`svc`, or `vllm` when configured). */
    readonly cpuTextGeneration: InferenceServer,
    /** The variable that pinned each image, by image slot. */
    private readonly setBy: Record<string, string | null> = {},
  ) {}

  static fromEnv(env: Record<string, string | undefined>): ImageCatalog {
    const choices = loadImageChoices(env);
    const find = (task: Task, engine: InferenceServer) => choices.find((choice) => choice.task === task && choice.engine === engine)!;
    const slot = (choice: ChosenImage) => `${choice.task}/${choice.engine}`;
    return new ImageCatalog(
      { "text-generation": find("text-generation", "svc").image, "speech-recognition": find("speech-recognition", "svc").image },
      { vllm: find("text-generation", "vllm").image, sglang: find("text-generation", "sglang").image },
      env.SVC_TEXT_GENERATION_ENGINE === "vllm" ? "vllm" : "svc",
      Object.fromEntries(choices.map((choice) => [slot(choice), choice.setBy])),
    );
  }

  image(task: Task, server: InferenceServer): string {
    return server === "svc" ? this.images[task] : this.gpuImages[server];
  }

  /** Every image svc may run, with the task and server of each. */
  entries(): { task: Task; engine: InferenceServer; image: string; setBy: string | null }[] {
    return [
      ...this.projectImages().map(({ task, image }) => ({ task, engine: "svc" as const, image, setBy: this.setBy[`${task}/svc`] ?? null })),
      ...(Object.entries(this.gpuImages) as [GpuEngine, string][]).map(([engine, image]) => ({ task: "text-generation" as const, engine, image, setBy: this.setBy[`text-generation/${engine}`] ?? null })),
    ];
  }

  /**
   * Whether `image` is one of the project's runtime images: by its name (any tag), or, for another
   * name (a re-tag given to SVC_<TASK>_IMAGE or --image), by the content label svc's build gave it,
   * read with `labelsOf` (this machine's Docker; an image it does not have counts by name only).
   */
  async isProjectRuntime(image: string, labelsOf?: ImageLabels): Promise<boolean> {
    if (this.isProjectRuntimeName(image)) return true;
    const content = (await labelsOf?.(image))?.[CONTENT_LABEL];
    return content !== undefined && this.isProjectRuntimeName(content);
  }

  private isProjectRuntimeName(image: string): boolean {
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
