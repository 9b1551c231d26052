import { Elysia, t } from "elysia";
import { ErrorBody, ImageBuild, ImageBuildRequest, RuntimeImage } from "@svc/contracts";
import type { ImagesService } from "./service";

const tags = ["images"];

/** /api/images: the runtime images (svc image ls) and building the project's own (svc image build). */
export function imagesController(images: ImagesService) {
  return new Elysia({ name: "orchestrator/images", prefix: "/api/images" })
    .get("/", () => images.list(), {
      response: { 200: t.Array(RuntimeImage), 502: ErrorBody },
      detail: { summary: "Runtime images and whether this machine has them", tags },
    })
    .get("/builds", () => images.builds(), {
      response: { 200: t.Array(ImageBuild) },
      detail: {
        summary: "Recent image builds with their output, newest first",
        description: "A build runs for `svc image build` or for a `svc run` whose runtime image is missing; clients poll this to show its progress.",
        tags,
      },
    })
    .post("/build", ({ body }) => images.build(body.task), {
      body: ImageBuildRequest,
      response: { 200: t.Array(RuntimeImage), 400: ErrorBody, 502: ErrorBody },
      detail: { summary: "Build the project's runtime images (unchanged ones are reused)", tags },
    });
}
