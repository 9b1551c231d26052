import { Elysia, t } from "elysia";
import { ImageBuild, ImageBuildRequest, RuntimeImage, toTask } from "@svc/contracts";
import { operation } from "@svc/platform";
import type { ImagesService } from "./service";

const tags = ["images"];
const DOCKER = {
  502: "The Docker Engine answered with an error, or the build failed (`image_build_failed`).",
  503: "The Docker Engine is not answering at DOCKER_HOST.",
} as const;

/** /api/images: the runtime images (svc image ls) and building the project's own (svc image build). */
export function imagesController(images: ImagesService) {
  return new Elysia({ name: "orchestrator/images", prefix: "/api/images" })
    .get("", () => images.list(), {
      ...operation("listImages", { summary: "Runtime images and whether this machine has them", tags, ok: { 200: t.Array(RuntimeImage) }, errors: DOCKER }),
    })
    .get("/builds", () => images.builds(), {
      ...operation("listImageBuilds", {
        summary: "Recent image builds with their output, newest first",
        description: "A build runs for `svc image build` or for a `svc run` whose runtime image is missing; clients poll this to show its progress.",
        tags,
        ok: { 200: t.Array(ImageBuild) },
      }),
    })
    .post("/build", ({ body }) => images.build(toTask(body.task)), {
      body: ImageBuildRequest,
      ...operation("buildImages", { summary: "Build the project's runtime images (unchanged ones are reused)", tags, ok: { 200: t.Array(RuntimeImage) }, errors: DOCKER }),
    });
}
