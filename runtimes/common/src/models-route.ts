import { Elysia } from "elysia";

/**
 * `GET /v1/models` (and `/v1/models/{id}`): the one model a runtime serves, named by its snapshot
 * path; `extra` adds fields of the runtime's own (text generation: `max_model_len`).
 */
export function modelsRoute(modelName: string, created: number, extra: () => Record<string, unknown> = () => ({})) {
  const model = () => ({ id: modelName, object: "model", created, owned_by: "svc", ...extra() });
  return new Elysia()
    .get("/v1/models", () => ({ object: "list", data: [model()] }))
    .get("/v1/models/*", ({ params, set }) => {
      if (params["*"] === modelName || `/${params["*"]}` === modelName || decodeURIComponent(params["*"]) === modelName) return model();
      set.status = 404;
      return { error: { message: `The model '${params["*"]}' does not exist; this service serves ${modelName}.`, type: "invalid_request_error", param: "model", code: "model_not_found" } };
    });
}
