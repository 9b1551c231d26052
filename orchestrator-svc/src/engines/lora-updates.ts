import { ApiError, type InferenceServer } from "@svc/contracts";

/**
 * Where each inference server loads and unloads a LoRA adapter while it runs: vLLM's routes (which
 * svc's CPU runtime answers too) and SGLang's. Each takes `lora_name` and, to load, `lora_path`.
 */
const LORA_ROUTES: Record<InferenceServer, { load: string; unload: string }> = {
  svc: { load: "/v1/load_lora_adapter", unload: "/v1/unload_lora_adapter" },
  vllm: { load: "/v1/load_lora_adapter", unload: "/v1/unload_lora_adapter" },
  sglang: { load: "/load_lora_adapter", unload: "/unload_lora_adapter" },
};

export type LoraChange = { load: { name: string; path: string } } | { unload: string };

/** Asks the running server at `url` to load or unload an adapter; a 502 with the server's own words when it refuses or does not answer. */
export async function changeLora(url: string, apiKey: string | null, server: InferenceServer, change: LoraChange, timeoutMs = 120_000): Promise<void> {
  const [path, body] = "load" in change ? [LORA_ROUTES[server].load, { lora_name: change.load.name, lora_path: change.load.path }] : [LORA_ROUTES[server].unload, { lora_name: change.unload }];
  let response: Response;
  try {
    response = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new ApiError(502, "service_unreachable", `The service did not answer ${path}: ${error instanceof Error ? error.message : String(error)}.`);
  }
  if (response.ok) {
    await response.body?.cancel();
    return;
  }
  const text = (await response.text()).slice(0, 1000);
  let message = text;
  try {
    message = (JSON.parse(text) as { error?: { message?: string }; message?: string }).error?.message ?? (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {}
  throw new ApiError(502, "adapter_change_failed", `The service refused ${path} (${response.status}): ${message}`);
}
