export { parseRuntimeArgs, UsageError, type RuntimeArgs } from "./args";
export { checkBearer } from "./bearer-auth";
export { EngineState } from "./engine-state";
export { Counter, Gauge, Histogram, MetricsRegistry } from "./metrics";
export { findModelFile } from "./model-file";
export { invalidRequest, OpenAiError } from "./openai-error";
export { createRuntimeApp, serveRuntime, type ListeningRuntime } from "./runtime-server";
export { RequestQueue } from "./request-queue";
