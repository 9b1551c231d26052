import type { ImageBuild, RuntimeImage, Task } from "@svc/contracts";
import type { ImageCatalog } from "../catalog/images";
import type { ImageStore } from "../engines/engine";
import { engineFailure } from "../services/engine-failure";

/** `svc image ls` and `svc image build`: the container images of the inference servers and whether this machine has them. */
export class ImagesService {
  constructor(
    private readonly catalog: ImageCatalog,
    /** The engine that keeps images here (Docker). */
    private readonly store: ImageStore,
  ) {}

  async list(): Promise<RuntimeImage[]> {
    const entries = this.catalog.entries().map(async (entry) => {
      const found = await this.store.image(entry.image);
      return { ...entry, present: found !== undefined, sizeBytes: found?.sizeBytes ?? null, createdAt: found?.createdAt ?? null };
    });
    return Promise.all(entries).catch((error) => {
      throw engineFailure(error, "Docker did not list its images");
    });
  }

  /** Recent builds of the project's images with their output, newest first. */
  builds(): ImageBuild[] {
    return this.store.builds();
  }

  /** Builds the project's runtime image for `task` (or all); unchanged ones are reused. */
  async build(task: Task | undefined): Promise<RuntimeImage[]> {
    const tasks = task ? [task] : this.catalog.projectImages().map((entry) => entry.task);
    for (const each of tasks) {
      await this.store.build(each).catch((error) => {
        throw engineFailure(error, `Building the ${each} runtime image failed`);
      });
    }
    return (await this.list()).filter((image) => image.engine === "svc" && tasks.includes(image.task));
  }
}
