import type { ImageBuild, RuntimeImage, Task } from "@svc/contracts";
import type { DockerEngine } from "../engines/docker/docker-engine";
import type { RuntimeCatalog } from "../runtimes/catalog";

/** `svc image ls` and `svc image build`: the runtime images and whether this machine has them. */
export class ImagesService {
  constructor(
    private readonly catalog: RuntimeCatalog,
    private readonly docker: DockerEngine,
  ) {}

  async list(): Promise<RuntimeImage[]> {
    const entries = [
      ...this.catalog.projectImages().map(({ task, image }) => ({ task, engine: "svc" as const, image })),
      { task: "text-generation" as const, engine: "vllm" as const, image: this.catalog.image("text-generation", "vllm") },
    ];
    return Promise.all(
      entries.map(async (entry) => {
        const found = await this.docker.image(entry.image);
        return { ...entry, present: found !== undefined, sizeBytes: found?.sizeBytes ?? null, createdAt: found?.createdAt ?? null };
      }),
    );
  }

  /** Recent builds of the project's images with their output, newest first. */
  builds(): ImageBuild[] {
    return this.catalog.builder.list();
  }

  /** Builds the project's runtime image for `task` (or all); unchanged ones are reused. */
  async build(task: Task | undefined): Promise<RuntimeImage[]> {
    const tasks = task ? [task] : this.catalog.projectImages().map((entry) => entry.task);
    for (const each of tasks) await this.catalog.build(each);
    return (await this.list()).filter((image) => image.engine === "svc" && tasks.includes(image.task));
  }
}
