import type { ImageBuild, RuntimeImage, Task } from "@svc/contracts";
import type { SvcClient } from "./client";

/** /api/images: `client.images.list()`, `.build(task?)`, `.builds()`. */
export class ImagesApi {
  constructor(private readonly client: Pick<SvcClient, "call">) {}

  list(): Promise<RuntimeImage[]> {
    return this.client.call("GET /api/images", {});
  }

  /** Recent image builds with their output so far, newest first (to show a build's progress). */
  builds(): Promise<ImageBuild[]> {
    return this.client.call("GET /api/images/builds", {});
  }

  /** Builds the project's runtime image for `task` (or all of them); unchanged ones are reused. */
  build(task?: Task): Promise<RuntimeImage[]> {
    return this.client.call("POST /api/images/build", { body: task ? { task } : {} });
  }
}
