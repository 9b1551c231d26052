/** The endpoints a batch may run, as OpenAI's Batch API has them (the batch driver's too). */
export const BATCH_ENDPOINTS = ["/v1/chat/completions", "/v1/completions", "/v1/embeddings"] as const;
export type BatchEndpoint = (typeof BATCH_ENDPOINTS)[number];

/** OpenAI's limits for a batch input file. */
export const MAX_BATCH_LINES = 50_000;

/** What a valid batch input file holds. */
export interface BatchFileFacts {
  lines: number;
  /** The one `body.model` every line names. */
  model: string;
  /** The endpoints its lines use. */
  urls: BatchEndpoint[];
}

/** Why a file is not a batch input, naming the line to fix. */
export class BatchFileError extends Error {}

/**
 * Checks a batch input file as OpenAI's Batch API takes it: JSONL, each line an object with a
 * unique `custom_id`, `method` POST, `url` one of the batch endpoints and a `body` naming the
 * `model`; every line the same model (the batch runs one). Blank lines are skipped.
 */
export function checkBatchFile(text: string): BatchFileFacts {
  const seen = new Set<string>();
  const urls = new Set<BatchEndpoint>();
  let model: string | undefined;
  let lines = 0;
  text.split("\n").forEach((raw, index) => {
    if (!raw.trim()) return;
    const at = `line ${index + 1}`;
    const fail = (why: string) => {
      throw new BatchFileError(`${at}: ${why}`);
    };
    if (++lines > MAX_BATCH_LINES) fail(`a batch file holds at most ${MAX_BATCH_LINES} requests.`);
    let line: unknown;
    try {
      line = JSON.parse(raw);
    } catch {
      return fail("not JSON: each line is one request object.");
    }
    if (typeof line !== "object" || line === null || Array.isArray(line)) return fail("give a JSON object with custom_id, method, url and body.");
    const { custom_id, method, url, body } = line as Record<string, unknown>;
    if (typeof custom_id !== "string" || !custom_id) fail("custom_id: give a non-empty string.");
    if (seen.has(custom_id as string)) fail(`custom_id ${JSON.stringify(custom_id)} is used by an earlier line: each must be unique.`);
    seen.add(custom_id as string);
    if (method !== "POST") fail(`method ${JSON.stringify(method)}: use "POST".`);
    if (!BATCH_ENDPOINTS.includes(url as BatchEndpoint)) fail(`url ${JSON.stringify(url)}: use one of ${BATCH_ENDPOINTS.join(", ")}.`);
    urls.add(url as BatchEndpoint);
    if (typeof body !== "object" || body === null || Array.isArray(body)) return fail("body: give the request's JSON object.");
    const named = (body as Record<string, unknown>).model;
    if (typeof named !== "string" || !named) fail("body.model: name the model.");
    if (model !== undefined && named !== model) fail(`body.model ${JSON.stringify(named)}: every line of a batch must name the same model (earlier lines name ${JSON.stringify(model)}).`);
    model = named as string;
  });
  if (lines === 0 || model === undefined) throw new BatchFileError("the file holds no requests: give one JSON request per line.");
  return { lines, model, urls: [...urls] };
}

/** Why a file whose lines use `urls` cannot run as a batch for `endpoint`, or undefined. */
export function endpointProblem(urls: readonly string[], endpoint: string): string | undefined {
  const other = urls.find((url) => url !== endpoint);
  return other ? `the input file has requests for ${other}, and a batch runs one endpoint (${endpoint}): put them in a file of their own.` : undefined;
}
