import { Elysia } from "elysia";

/** `GET /v1/models`: the one model this runtime serves, named by its snapshot path. */
export function modelsRoute(modelName: string, contextSize: () => number, created: number) {
  const model = () => ({ id: modelName, object: "model", created, owned_by: "svc", max_model_len: contextSize() });
  return new Elysia()
    .get("/v1/models", () => ({ object: "list", data: [model()] }))
    .get("/v1/models/*", ({ params, set }) => {
      if (params["*"] === modelName || `/${params["*"]}` === modelName || decodeURIComponent(params["*"]) === modelName) return model();
      set.status = 404;
      return { error: { message: `The model '${params["*"]}' does not exist; this service serves ${modelName}.`, type: "invalid_request_error", param: "model", code: "model_not_found" } };
    });
}
