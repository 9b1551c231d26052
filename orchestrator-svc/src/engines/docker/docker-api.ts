import { EngineError } from "../engine-error";

/**
 * A failed Engine API call, with Docker's own message and status (`engineStatus`): unreachable when
 * the engine cannot be reached or used (not running, a DOCKER_HOST svc cannot use), else failed.
 */
export class DockerError extends EngineError {
  constructor(
    readonly engineStatus: number,
    message: string,
  ) {
    super(engineStatus === 503 || engineStatus === 400 ? "unreachable" : "failed", "docker_error", `Docker: ${message}`);
    this.name = "DockerError";
  }
}

/**
 * The Docker Engine API over its unix socket (no docker CLI). The version is pinned so the
 * same calls work on older engines (Debian's 20.10 speaks 1.41).
 */
export class DockerApi {
  constructor(
    readonly socketPath: string,
    private readonly version = "v1.41",
    /** Set when DOCKER_HOST cannot be used: every call then fails with this message. */
    private readonly misconfigured?: string,
  ) {}

  /** From DOCKER_HOST (unix:// only), else the default socket. */
  static fromEnv(env: Record<string, string | undefined> = process.env): DockerApi {
    const host = env.DOCKER_HOST;
    if (host && !host.startsWith("unix://")) {
      return new DockerApi("", undefined, `DOCKER_HOST=${host} is not supported: svc talks to Docker over a unix:// socket.`);
    }
    return new DockerApi(host ? host.slice("unix://".length) : "/var/run/docker.sock");
  }

  async raw(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    if (this.misconfigured) throw new DockerError(400, this.misconfigured);
    let response: Response;
    try {
      response = await fetch(`http://docker/${this.version}${path}`, {
        method,
        unix: this.socketPath,
        headers: body === undefined ? undefined : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      } as RequestInit);
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new DockerError(503, unreachable(this.socketPath, error));
    }
    if (!response.ok) {
      const text = await response.text();
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {}
      throw new DockerError(response.status, message.trim() || `Docker answered ${response.status}`);
    }
    return response;
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.raw(method, path, body);
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async ping(): Promise<boolean> {
    try {
      await this.raw("GET", "/_ping");
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * Why the Engine's socket could not be used, plainly: Bun words a failed unix-socket connect as
 * "ENOENT: Was there a typo in the url or port?", which says nothing about Docker.
 */
export function unreachable(socketPath: string, error: unknown): string {
  const code = (error as { code?: string }).code;
  const why =
    code === "ENOENT"
      ? `there is no socket at ${socketPath}`
      : code === "ECONNREFUSED"
        ? `nothing answers on ${socketPath}`
        : code === "EACCES" || code === "EPERM"
          ? `this user may not use ${socketPath} (add it to the docker group)`
          : `${socketPath} did not answer (${String((error as Error).message ?? error).replace(/:?\s*Was there a typo in the url or port\?/, "").trim() || code})`;
  return `the Docker Engine is not reachable: ${why}. Start Docker (or point DOCKER_HOST at its unix:// socket), then try again.`;
}
