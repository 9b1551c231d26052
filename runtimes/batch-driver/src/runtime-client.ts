/** A request the runtime answered with an error: the input failed (recorded), the job goes on. */
export class InputFailure extends Error {
  override name = "InputFailure";
  constructor(
    message: string,
    readonly status?: number,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

/** The runtime did not answer at all (it is starting over, or gone): the input is not at fault and is tried again. */
export class RuntimeUnreachable extends Error {
  override name = "RuntimeUnreachable";
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    throw new RuntimeUnreachable(`the runtime did not answer: ${(error as Error).message}`);
  }
}

/** The runtime's error message in OpenAI's shape, or the start of its answer. */
function errorMessage(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const message = typeof body.error === "string" ? body.error : (body.error?.message ?? body.message);
    if (message) return `HTTP ${status}: ${message}`;
  } catch {}
  return `HTTP ${status}: ${text.slice(0, 300)}`;
}

/** Calls the runtime the job started (or was given): JSON or multipart bodies, its key as a bearer token. */
export class RuntimeClient {
  /**
   * The model the runtime serves, as `GET /v1/models` names it: requests name it, since vLLM
   * answers 404 to any other name (svc's runtimes serve theirs whatever the name).
   */
  model: string | undefined;

  constructor(
    readonly url: string,
    private readonly key: string | undefined,
  ) {}

  /**
   * Asks the runtime which model it serves (left unknown when it does not say). `wanted` (a LoRA
   * adapter served beside the base) is what requests name instead; a runtime that lists its models
   * without it would answer them with the base or not at all, so that is an error.
   */
  async learnModel(wanted?: string): Promise<void> {
    let ids: string[] | undefined;
    try {
      const response = await fetch(`${this.url}/v1/models`, { headers: this.headers(false), signal: AbortSignal.timeout(10_000) });
      const data = response.ok ? ((await response.json()) as { data?: { id?: unknown }[] }).data : undefined;
      ids = Array.isArray(data) ? data.map((model) => model?.id).filter((id): id is string => typeof id === "string") : undefined;
    } catch {
      ids = undefined;
    }
    if (wanted !== undefined && ids?.length && !ids.includes(wanted)) throw new Error(`the runtime does not serve ${wanted}: it serves ${ids.join(", ")}`);
    this.model = wanted ?? ids?.[0];
  }

  private headers(json: boolean): Record<string, string> {
    return { ...(this.key ? { authorization: `Bearer ${this.key}` } : {}), ...(json ? { "content-type": "application/json" } : {}) };
  }

  /** The answer's status and parsed body, whatever the status (the OpenAI batch output keeps errors as answers). */
  async raw(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
    const response = await send(`${this.url}${path}`, { method: "POST", headers: this.headers(true), body: JSON.stringify(body) });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: response.status, body: parsed };
  }

  async json<T>(path: string, body: unknown): Promise<T> {
    const response = await send(`${this.url}${path}`, { method: "POST", headers: this.headers(true), body: JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new InputFailure(errorMessage(response.status, text), response.status);
    return JSON.parse(text) as T;
  }

  async form<T>(path: string, form: FormData): Promise<T> {
    const response = await send(`${this.url}${path}`, { method: "POST", headers: this.headers(false), body: form });
    const text = await response.text();
    if (!response.ok) throw new InputFailure(errorMessage(response.status, text), response.status);
    return JSON.parse(text) as T;
  }

  async healthy(): Promise<boolean> {
    try {
      return (await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(2000) })).ok;
    } catch {
      return false;
    }
  }
}
