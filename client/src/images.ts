import type { RuntimeImage, Task } from "@svc/contracts";
import type { SvcClient } from "./client";

/** /api/images: `client.images.list()`, `.build(task?)`. */
export class ImagesApi {
  constructor(private readonly client: Pick<SvcClient, "call">) {}

  list(): Promise<RuntimeImage[]> {
    return this.client.call("GET /api/images", {});
  }

  /** Builds the project's runtime image for `task` (or all of them); unchanged ones are reused. */
  build(task?: Task): Promise<RuntimeImage[]> {
    return this.client.call("POST /api/images/build", { body: task ? { task } : {} });
  }
}
