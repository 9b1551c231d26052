/** How long a health check (GET /v1/models) may take: an endpoint slower than this is UNHEALTHY. */
export const PROBE_TIMEOUT_MS = 5000;

export type ProbeResult = { ok: true; models: string[] } | { ok: false; reason: string };

/**
 * Asks an OpenAI-compatible server for its models (GET <base>/v1/models, with its key). The
 * reason never quotes the server's answer, which might echo the key.
 */
export async function probeEndpoint(base: string, apiKey: string | null, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  let response: Response;
  try {
    response = await fetch(`${base}/v1/models`, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual",
    });
  } catch (error) {
    const name = (error as Error).name;
    if (name === "TimeoutError" || name === "AbortError") return { ok: false, reason: `GET /v1/models did not answer within ${timeoutMs / 1000} s` };
    return { ok: false, reason: `not reachable: ${(error as { code?: string }).code ?? (error as Error).message}` };
  }
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    return { ok: false, reason: `GET /v1/models answered ${response.status}: the API key is ${apiKey ? "refused" : "missing"} (svc endpoint rm, then add it again with --api-key-file)` };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { ok: false, reason: `GET /v1/models answered ${response.status}` };
  }
  try {
    const body = (await response.json()) as { data?: Array<{ id?: unknown }> };
    if (!Array.isArray(body.data)) return { ok: false, reason: "GET /v1/models did not answer an OpenAI model list" };
    return { ok: true, models: body.data.map((model) => model.id).filter((id): id is string => typeof id === "string" && id.length > 0) };
  } catch {
    return { ok: false, reason: "GET /v1/models did not answer JSON" };
  }
}

/**
 * The base URL requests go to: http(s) only, no credentials, query or fragment; a trailing `/v1`
 * (as OpenAI clients take it) and slashes dropped. Returns the problem instead when there is one.
 */
export function endpointBase(raw: string): { base: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: `'${raw}' is not a URL; give e.g. https://llm.example.edu or http://gpu-node.example.edu:8000/v1` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { problem: `the URL must be http or https, not ${url.protocol.replace(":", "")}` };
  if (url.username || url.password) return { problem: "the URL must not carry credentials: give the API key with --api-key-file (apiKey in the API)" };
  if (url.search || url.hash) return { problem: "the URL must not have a query or fragment: give the server's base URL" };
  const path = url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "");
  return { base: `${url.origin}${path}` };
}
