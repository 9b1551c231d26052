import { existsSync } from "node:fs";
import { Elysia, t } from "elysia";
import { invalidRequest, OpenAiError } from "@svc/runtime-common";
import type { LlamaEngine } from "./llama-engine";

/** vLLM's routes for LoRA adapters while it runs, which svc's orchestrator calls the same way on this runtime and on vLLM. */
export const LORA_PATHS = ["/v1/load_lora_adapter", "/v1/unload_lora_adapter"];

const LoadRequest = t.Object({ lora_name: t.String({ minLength: 1, maxLength: 256 }), lora_path: t.String({ minLength: 1, maxLength: 4096 }) });
const UnloadRequest = t.Object({ lora_name: t.String({ minLength: 1, maxLength: 256 }) });

/**
 * `POST /v1/load_lora_adapter` {lora_name, lora_path} and `POST /v1/unload_lora_adapter`
 * {lora_name}, as vLLM answers them: a GGUF adapter served (or no longer) under its name from now
 * on, without a restart. Behind the API key like every /v1 route.
 */
export function loraRoutes(engine: () => LlamaEngine) {
  return new Elysia()
    .post(
      "/v1/load_lora_adapter",
      async ({ body }) => {
        if (!body.lora_path.startsWith("/") || !existsSync(body.lora_path)) throw invalidRequest(`lora_path: ${body.lora_path} is not a file here.`, "lora_path");
        if (engine().adapters.includes(body.lora_name)) throw invalidRequest(`lora_name: the adapter ${body.lora_name} is loaded already.`, "lora_name");
        await engine().addAdapter({ name: body.lora_name, filePath: body.lora_path });
        return { object: "lora_adapter", id: body.lora_name, loaded: true };
      },
      { body: LoadRequest },
    )
    .post(
      "/v1/unload_lora_adapter",
      async ({ body }) => {
        if (!(await engine().removeAdapter(body.lora_name))) throw new OpenAiError(404, `The adapter ${body.lora_name} is not loaded.`, "invalid_request_error", "lora_adapter_not_found", "lora_name");
        return { object: "lora_adapter", id: body.lora_name, loaded: false };
      },
      { body: UnloadRequest },
    );
}
