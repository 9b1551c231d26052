import { Type } from "@sinclair/typebox";
import { inDocument } from "./check";

/** `Model`: id, object, created, owned_by. */
export const ModelObject = inDocument("Model", Type.Object({
  id: Type.String(),
  object: Type.Literal("model"),
  created: Type.Integer(),
  owned_by: Type.String(),
}));

/** `ListModelsResponse` (`GET /v1/models`). */
export const ModelList = inDocument("ListModelsResponse", Type.Object({ object: Type.Literal("list"), data: Type.Array(ModelObject) }));
