import { Elysia } from "elysia";

/**
 * `GET /v1/models` (and `/v1/models/{id}`): the model a runtime serves, named by its snapshot
 * path, then the LoRA adapters it serves on it (`adapters()`), each with the model as its
 * `parent` and `root` as vLLM lists them; `extra` adds fields of the runtime's own (text
 * generation: `max_model_len`).
 */
export function modelsRoute(modelName: string, created: number, extra: () => Record<string, unknown> = () => ({}), adapters: () => readonly string[] = () => []) {
  const model = () => ({ id: modelName, object: "model", created, owned_by: "svc", ...extra() });
  const adapter = (name: string) => ({ id: name, object: "model", created, owned_by: "svc", root: modelName, parent: modelName, ...extra() });
  return new Elysia()
    .get("/v1/models", () => ({ object: "list", data: [model(), ...adapters().map(adapter)] }))
    .get("/v1/models/*", ({ params, set }) => {
      const wanted = decodeURIComponent(params["*"]);
      if (adapters().includes(wanted)) return adapter(wanted);
      if (params["*"] === modelName || `/${params["*"]}` === modelName || wanted === modelName) return model();
      set.status = 404;
      return { error: { message: `The model '${params["*"]}' does not exist; this service serves ${modelName}.`, type: "invalid_request_error", param: "model", code: "model_not_found" } };
    });
}
