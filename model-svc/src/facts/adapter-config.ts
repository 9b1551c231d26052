/** What svc reads of a PEFT adapter_config.json. */
export interface PeftConfig {
  baseModel?: string;
  rank?: number;
  alpha?: number;
  /** As written: a list of module names, or one pattern. */
  targetModules?: string[];
  taskType?: string;
  /** LORA for a LoRA adapter; other PEFT methods (IA3, prefix tuning…) are not adapters svc serves. */
  peftType?: string;
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
const count = (value: unknown) => (typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined);

/** Reads adapter_config.json; throws an Error saying why when it is not a JSON object. */
export function parseAdapterConfig(configText: string): PeftConfig {
  let config: unknown;
  try {
    config = JSON.parse(configText);
  } catch {
    throw new Error("not valid JSON");
  }
  if (typeof config !== "object" || config === null || Array.isArray(config)) throw new Error("not a JSON object");
  const raw = config as Record<string, unknown>;
  const targets = raw.target_modules;
  const targetModules = Array.isArray(targets) ? targets.filter((t): t is string => typeof t === "string") : text(targets) ? [targets as string] : undefined;
  const alpha = typeof raw.lora_alpha === "number" && Number.isFinite(raw.lora_alpha) ? raw.lora_alpha : undefined;
  return {
    baseModel: text(raw.base_model_name_or_path),
    rank: count(raw.r),
    alpha,
    targetModules,
    taskType: text(raw.task_type),
    peftType: text(raw.peft_type),
  };
}
