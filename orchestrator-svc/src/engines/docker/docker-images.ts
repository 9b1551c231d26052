import type { Task } from "@svc/contracts";
import type { ImageStore } from "../engine";
import { EngineError } from "../engine-error";
import { DockerApi, DockerError } from "./docker-api";

/** images/build.ts; looked up when a build is asked for (an application image without images/ still runs prebuilt images). */
const buildScript = () => Bun.resolveSync("@svc/images/build", import.meta.dir);

/**
 * The container images on this machine's Docker Engine, and the project's own ones built here
 * without any registry (images/build.ts): what the Docker engine prepares before it starts a service.
 */
export class DockerImages implements ImageStore {
  constructor(
    private readonly api: DockerApi,
    /** The task whose project image an image is, if it is one svc can build. */
    private readonly projectTask: (image: string) => Task | undefined,
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

  /** Builds a missing project image (and says so); a missing third-party image is an error saying how to get it. */
  async ensure(image: string): Promise<string[]> {
    if ((await this.image(image)) !== undefined) return [];
    const task = this.projectTask(image);
    if (!task) {
      throw new EngineError("invalid", "image_missing", `The image ${image} is not on this machine: pull it (docker pull ${image}) or point SVC_TEXT_GENERATION_IMAGE at a local image.`);
    }
    await this.build(task);
    return [`The runtime image ${image} was missing, so it was built first.`];
  }

  async build(task: Task): Promise<void> {
    let script: string;
    try {
      script = buildScript();
    } catch {
      throw new EngineError("failed", "image_build_failed", `Building the ${task} runtime image needs the images/ folder of svc, which this installation does not have.`);
    }
    const proc = Bun.spawn([process.execPath, script, task], { stdout: "pipe", stderr: "pipe" });
    const [, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new EngineError("failed", "image_build_failed", `Building the ${task} runtime image failed:\n${err.trim().split("\n").slice(-10).join("\n")}`);
  }
}
