import { Type, type Static } from "@sinclair/typebox";
import { INFERENCE_SERVERS, literalUnion, Task } from "./services";

/** A container image of an inference server for a task (spec §1.9: local images are preferred). */
export const RuntimeImage = Type.Object({
  task: Task,
  engine: literalUnion(INFERENCE_SERVERS, { description: "The inference server: `svc`, the project's CPU runtime, built here; `vllm`, vLLM's OpenAI server for GPUs." }),
  image: Type.String(),
  present: Type.Boolean({ description: "Whether the image is on this machine's Docker Engine." }),
  sizeBytes: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.Union([Type.String(), Type.Null()]),
}, { $id: "RuntimeImage" });
export type RuntimeImage = Static<typeof RuntimeImage>;

export const ImageBuildRequest = Type.Object(
  { task: Type.Optional(Task) },
  { $id: "ImageBuildRequest", additionalProperties: false, description: "Which runtime image to build; default: all of the project's." },
);
export type ImageBuildRequest = Static<typeof ImageBuildRequest>;
