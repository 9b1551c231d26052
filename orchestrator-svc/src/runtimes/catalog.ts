import { join } from "node:path";
import { ApiError } from "@svc/platform";
import type { Task } from "@svc/contracts";
import type { Engine } from "../engines/engine";
import { DockerEngine } from "../engines/docker/docker-engine";
import type { RuntimeKind } from "../launch/runtime-args";

const BUILD_SCRIPT = join(import.meta.dir, "..", "..", "..", "images", "build.ts");
export const VLLM_IMAGE = "vllm/vllm-openai:latest";
const PROJECT_PREFIX = "svc-";
const DEFAULT_IMAGES: Record<Task, string> = { "text-generation": "svc-text-generation:latest", "speech-recognition": "svc-speech-recognition:latest" };
const repositoryOf = (image: string) => image.replace(/[:@].*$/, "");

/**
 * Which image serves which task: the project's CPU runtimes (built locally, no registry) or vLLM's
 * OpenAI server for GPUs. Environment variables override each choice.
 */
export class RuntimeCatalog {
  constructor(
    private readonly images: Record<Task, string>,
    private readonly vllmImage: string,
    readonly cpuTextGeneration: RuntimeKind,
  ) {}

  static fromEnv(env: Record<string, string | undefined>): RuntimeCatalog {
    return new RuntimeCatalog(
      {
        "text-generation": env.SVC_RUNTIME_IMAGE_TEXT_GENERATION || DEFAULT_IMAGES["text-generation"],
        "speech-recognition": env.SVC_RUNTIME_IMAGE_SPEECH_RECOGNITION || DEFAULT_IMAGES["speech-recognition"],
      },
      env.SVC_TEXT_GENERATION_IMAGE || VLLM_IMAGE,
      env.SVC_TEXT_GENERATION_ENGINE === "vllm" ? "vllm" : "svc",
    );
  }

  image(task: Task, kind: RuntimeKind): string {
    return kind === "vllm" ? this.vllmImage : this.images[task];
  }

  /** Whether `image` is one of the project's runtime images (any tag), not a replacement set by SVC_RUNTIME_IMAGE_*. */
  isProjectRuntime(image: string): boolean {
    return Object.values(DEFAULT_IMAGES).some((projectImage) => repositoryOf(projectImage) === repositoryOf(image));
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

  async build(task: Task): Promise<string> {
    const proc = Bun.spawn([process.execPath, BUILD_SCRIPT, task], { stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new ApiError(502, "image_build_failed", `Building the ${task} runtime image failed:\n${err.trim().split("\n").slice(-10).join("\n")}`);
    return out.trim().split("\n").pop() ?? "";
  }
}
