import type { Caller } from "./caller";
import type { TokenUsage } from "./usage-tap";

/** One /v1 request, once its answer is over: what usage records and metrics count. */
export interface V1Outcome {
  at: Date;
  caller: Caller;
  endpoint: string;
  /** The repo id served (or the `model` asked for, when nothing served it). */
  model: string | null;
  /** `model` is a repo id svc serves (not just what a caller asked for, which metrics do not take as a label). */
  modelServed: boolean;
  serviceId: string | null;
  serviceName: string | null;
  status: number;
  /** How the answer's body ended: a caller that went away mid-stream is "cancelled". */
  end: "complete" | "cancelled" | "error";
  latencyMs: number;
  usage: TokenUsage | null;
  /** A stream's end and usage: from the runtime's records (the stream passed untouched), or read on its way. */
  streamEnd?: "record" | "read";
}

export type OutcomeSink = (outcome: V1Outcome) => void;
