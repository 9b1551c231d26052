import { randomBytes } from "node:crypto";
import type { Subprocess } from "bun";
import { RuntimeClient } from "./runtime-client";

const READY_WAIT_MS = 15 * 60_000;

/** A free port on loopback, for the runtime the driver starts. */
function freePort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

/**
 * The runtime the job serves from, started by the driver on loopback with a key of its own (in the
 * variable the server reads, never on a command line): only the driver can reach it. Its output
 * goes to the job's.
 */
export class RuntimeChild {
  private constructor(
    readonly client: RuntimeClient,
    private readonly proc: Subprocess | undefined,
  ) {}

  static start(command: string[], keyVariable = "SVC_API_KEY"): RuntimeChild {
    const port = freePort();
    const key = randomBytes(24).toString("hex");
    const proc = Bun.spawn([...command, "--host", "127.0.0.1", "--port", String(port)], {
      env: { ...process.env, [keyVariable]: key },
      stdout: "inherit",
      stderr: "inherit",
      stdin: "ignore",
    });
    return new RuntimeChild(new RuntimeClient(`http://127.0.0.1:${port}`, key), proc);
  }

  static external(url: string, key: string | undefined): RuntimeChild {
    return new RuntimeChild(new RuntimeClient(url.replace(/\/+$/, ""), key), undefined);
  }

  /** The exit code once the runtime ended on its own, else undefined. */
  get exitCode(): number | null | undefined {
    return this.proc?.exitCode ?? undefined;
  }

  /** Waits for /health to answer 200, then learns the model it serves (`model`: what requests name instead); throws when the runtime exits first or takes too long. */
  async ready(model?: string): Promise<void> {
    const deadline = Date.now() + READY_WAIT_MS;
    while (Date.now() < deadline) {
      if (this.proc && this.proc.exitCode !== null) throw new Error(`the runtime exited with code ${this.proc.exitCode} before it was ready`);
      if (await this.client.healthy()) return this.client.learnModel(model);
      await Bun.sleep(200);
    }
    throw new Error(`the runtime was not ready after ${READY_WAIT_MS / 60_000} minutes`);
  }

  async stop(): Promise<void> {
    if (!this.proc || this.proc.exitCode !== null) return;
    this.proc.kill("SIGTERM");
    const ended = await Promise.race([this.proc.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
    if (!ended) this.proc.kill("SIGKILL");
  }
}
