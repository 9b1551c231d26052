import type { TokenUsage } from "../openai/usage-tap";

/** One request's result as the batch driver wrote it (OpenAI's `BatchRequestOutput`). */
export interface ResultLine {
  customId: string;
  ok: boolean;
  status: number;
  usage: TokenUsage | null;
}

export interface SplitResults {
  /** Lines of requests that succeeded: the batch's output file. */
  output: string;
  /** Lines of requests that failed (an error status, or a line that was no request): its error file. */
  errors: string;
  lines: ResultLine[];
}

function usageOf(body: unknown): TokenUsage | null {
  const usage = (body as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } } | null)?.usage;
  if (!usage || typeof usage.prompt_tokens !== "number") return null;
  return { promptTokens: usage.prompt_tokens, completionTokens: typeof usage.completion_tokens === "number" ? usage.completion_tokens : 0 };
}

/**
 * Splits a batch job's results file as OpenAI does: successful requests to the output file, failed
 * ones to the error file, each line as written. A line that is not JSON (cut off) is left out.
 */
export function splitResults(text: string): SplitResults {
  const output: string[] = [];
  const errors: string[] = [];
  const lines: ResultLine[] = [];
  for (const raw of text.split("\n")) {
    if (!raw.trim()) continue;
    let line: { custom_id?: unknown; response?: { status_code?: unknown; body?: unknown } | null; error?: unknown };
    try {
      line = JSON.parse(raw);
    } catch {
      continue;
    }
    const status = typeof line.response?.status_code === "number" ? line.response.status_code : 400;
    const ok = line.response != null && line.error == null && status < 400;
    (ok ? output : errors).push(raw);
    lines.push({ customId: String(line.custom_id ?? ""), ok, status, usage: ok ? usageOf(line.response?.body) : null });
  }
  const joined = (part: string[]) => part.map((line) => `${line}\n`).join("");
  return { output: joined(output), errors: joined(errors), lines };
}
