import { Type, type Static } from "@sinclair/typebox";
import { INFERENCE_SERVERS, literalUnion, Task, TaskName } from "./services";

const SetBy = Type.Union([Type.String(), Type.Null()], {
  description: "The variable of `svc start`'s environment that pinned this image (SVC_TEXT_GENERATION_IMAGE, SVC_SPEECH_RECOGNITION_IMAGE, SVC_VLLM_IMAGE), or null for svc's default.",
});
const ENGINE = "The inference server: `svc`, the project's CPU runtime, built here; `vllm`, vLLM's OpenAI server for GPUs.";

/** The image the app runs for a task on an inference server (`/api/info`'s images). */
export const ImageChoice = Type.Object({
  task: Task,
  engine: literalUnion(INFERENCE_SERVERS, { description: ENGINE }),
  image: Type.String(),
  setBy: SetBy,
}, { $id: "ImageChoice" });
export type ImageChoice = Static<typeof ImageChoice>;

/** A container image of an inference server for a task (spec §1.9: local images are preferred). */
export const RuntimeImage = Type.Object({
  task: Task,
  engine: literalUnion(INFERENCE_SERVERS, { description: ENGINE }),
  image: Type.String(),
  setBy: SetBy,
  present: Type.Boolean({ description: "Whether the image is on this machine's Docker Engine." }),
  sizeBytes: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.Union([Type.String(), Type.Null()]),
}, { $id: "RuntimeImage" });
export type RuntimeImage = Static<typeof RuntimeImage>;

export const ImageBuildRequest = Type.Object(
  { task: Type.Optional(TaskName) },
  { $id: "ImageBuildRequest", additionalProperties: false, description: "Which runtime image to build; default: all of the project's." },
);
export type ImageBuildRequest = Static<typeof ImageBuildRequest>;

/** A build of a project runtime image, started by `svc image build` or by a `svc run` that needs the image. */
export const ImageBuild = Type.Object(
  {
    id: Type.String(),
    task: Task,
    image: Type.String({ description: "The image being built, e.g. svc-text-generation:latest." }),
    state: Type.Union([Type.Literal("running"), Type.Literal("completed"), Type.Literal("failed")]),
    lines: Type.Array(Type.String(), {
      description: "The build's output so far: which base and why, then docker build's Step lines and their output (the latest ones, see droppedLines).",
    }),
    droppedLines: Type.Integer({ minimum: 0, description: "Earlier lines no longer kept: lines[i] is line droppedLines + i of the output." }),
    startedAt: Type.String({ format: "date-time" }),
    finishedAt: Type.Optional(Type.String({ format: "date-time" })),
    error: Type.Optional(Type.String()),
  },
  { $id: "ImageBuild" },
);
export type ImageBuild = Static<typeof ImageBuild>;
