import type { Duplex } from "node:stream";
import { connectSsh, SshError, type ConnectOptions, type SshSession, type SshTarget } from "@svc/ssh";

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Where a slurm profile's commands run: over one shared SSH connection, or on this machine. */
export interface ClusterConnection {
  /** True when svc runs on the cluster itself (`host = localhost`): commands run here, no SSH, no tunnels. */
  readonly local: boolean;
  /** Runs a POSIX sh script (given on its standard input) in one round trip. */
  run(script: string, timeoutMs?: number): Promise<CommandResult>;
  /** Runs a command and streams its standard output until it ends or the stream is cancelled. */
  stream(script: string): Promise<ReadableStream<Uint8Array>>;
  /** A channel to host:port as seen from the login node (ssh2 forwardOut). */
  forward(host: string, port: number): Promise<Duplex>;
  /** Commands run so far (each is one SSH round trip when remote). */
  readonly roundTrips: number;
  close(): void;
}

export class ClusterUnreachable extends Error {
  override name = "ClusterUnreachable";
}

const OUTPUT_LIMIT = 8 * 1024 * 1024;
const KEEPALIVE_MS = 10_000;
const MAX_BACKOFF_MS = 30_000;
/**
 * sshd allows 10 session channels per connection (MaxSessions): commands take at most 4 at once
 * (the rest wait their turn), followed logs at most 5, so a burst never gets "open failed".
 */
const MAX_COMMANDS = 4;
const MAX_STREAMS = 5;

/** A counting semaphore: `acquire` resolves when a slot is free and returns its release. */
class Slots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}
  async acquire(): Promise<() => void> {
    if (this.used >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.used++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.used--;
    };
  }
  get free() {
    return this.size - this.used;
  }
}

/**
 * One ssh2 connection per slurm profile, shared by every call of every service of that profile.
 * Opened on first use, kept alive, and after it drops re-opened on the next call, with a growing
 * wait (0.5 s doubling up to 30 s) between failed attempts so an unreachable cluster is not hammered.
 */
export class SshConnection implements ClusterConnection {
  readonly local = false;
  roundTrips = 0;
  private session: Promise<SshSession> | undefined;
  private failures = 0;
  private nextAttemptAt = 0;
  private lastError: Error | undefined;
  private closed = false;
  private readonly commands = new Slots(MAX_COMMANDS);
  private readonly streams = new Slots(MAX_STREAMS);

  constructor(
    private readonly target: SshTarget,
    private readonly options: ConnectOptions = {},
  ) {}

  private connect(): Promise<SshSession> {
    if (this.session) return this.session;
    if (this.closed) return Promise.reject(new ClusterUnreachable("the connection was closed"));
    const wait = this.nextAttemptAt - Date.now();
    if (wait > 0 && this.lastError) {
      return Promise.reject(new ClusterUnreachable(`${this.lastError.message} (svc tries again, waiting longer after each failure)`));
    }
    const attempt = connectSsh(this.target, { keepaliveMs: KEEPALIVE_MS, ...this.options }).then(
      (session) => {
        this.failures = 0;
        this.lastError = undefined;
        const drop = () => {
          if (this.session === attempt) this.session = undefined;
        };
        session.client.on("close", drop);
        session.client.on("error", drop);
        session.client.on("end", drop);
        return session;
      },
      (error: Error) => {
        this.session = undefined;
        this.failures++;
        this.lastError = error;
        this.nextAttemptAt = Date.now() + Math.min(MAX_BACKOFF_MS, 500 * 2 ** (this.failures - 1));
        throw error instanceof SshError ? new ClusterUnreachable(error.message) : error;
      },
    );
    this.session = attempt;
    return attempt;
  }

  /** Drops a connection that failed mid-call, so the next call opens a new one. */
  private discard(session: SshSession) {
    void this.session?.then((current) => {
      if (current === session) this.session = undefined;
    });
    session.close();
  }

  async run(script: string, timeoutMs = 30_000): Promise<CommandResult> {
    const release = await this.commands.acquire();
    try {
      const session = await this.connect();
      this.roundTrips++;
      return await this.exec(session, script, timeoutMs);
    } finally {
      release();
    }
  }

  private exec(session: SshSession, script: string, timeoutMs: number): Promise<CommandResult> {
    return new Promise((resolve, reject) => {
      session.client.exec("sh -s", (error, stream) => {
        if (error) return reject(new ClusterUnreachable(`Could not run a command on ${this.target.host}: ${error.message}`));
        let stdout = "";
        let stderr = "";
        const timer = setTimeout(() => {
          // No answer at all: treat the connection as dead, so the next call opens a new one.
          stream.close();
          this.discard(session);
          reject(new ClusterUnreachable(`A command on ${this.target.host} did not finish within ${timeoutMs / 1000} s.`));
        }, timeoutMs);
        stream.on("data", (chunk: Buffer) => {
          if (stdout.length < OUTPUT_LIMIT) stdout += chunk.toString("utf8");
        });
        stream.stderr.on("data", (chunk: Buffer) => {
          if (stderr.length < OUTPUT_LIMIT) stderr += chunk.toString("utf8");
        });
        stream.on("close", (code: number | null) => {
          clearTimeout(timer);
          resolve({ code: code ?? null, stdout, stderr });
        });
        stream.end(script);
      });
    });
  }

  async stream(script: string): Promise<ReadableStream<Uint8Array>> {
    if (this.streams.free === 0) throw new ClusterUnreachable(`${MAX_STREAMS} outputs are already being followed over the connection to ${this.target.host}: stop one first.`);
    const release = await this.streams.acquire();
    try {
      const session = await this.connect();
      this.roundTrips++;
      return await new Promise((resolve, reject) => {
        session.client.exec("sh -s", (error, channel) => {
          if (error) return reject(new ClusterUnreachable(`Could not run a command on ${this.target.host}: ${error.message}`));
          channel.end(script);
          channel.stderr.resume();
          channel.on("close", release);
          resolve(
            new ReadableStream<Uint8Array>({
              start(controller) {
                channel.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
                channel.on("close", () => {
                  try {
                    controller.close();
                  } catch {
                    // already cancelled
                  }
                });
              },
              cancel() {
                channel.close();
              },
            }),
          );
        });
      });
    } catch (error) {
      release();
      throw error;
    }
  }

  async forward(host: string, port: number): Promise<Duplex> {
    const session = await this.connect();
    return new Promise((resolve, reject) => {
      session.client.forwardOut("127.0.0.1", 0, host, port, (error, channel) => (error ? reject(error) : resolve(channel)));
    });
  }

  close(): void {
    this.closed = true;
    void this.session?.then((session) => session.close()).catch(() => {});
    this.session = undefined;
  }
}

/** `host = localhost`: the application runs on the cluster itself, so commands run here. */
export class LocalConnection implements ClusterConnection {
  readonly local = true;
  roundTrips = 0;

  async run(script: string, timeoutMs = 30_000): Promise<CommandResult> {
    this.roundTrips++;
    const proc = Bun.spawn(["sh", "-s"], { stdin: new TextEncoder().encode(script), stdout: "pipe", stderr: "pipe", timeout: timeoutMs });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  }

  async stream(script: string): Promise<ReadableStream<Uint8Array>> {
    this.roundTrips++;
    const proc = Bun.spawn(["sh", "-s"], { stdin: new TextEncoder().encode(script), stdout: "pipe", stderr: "ignore" });
    const reader = proc.stdout.getReader();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel() {
        proc.kill();
      },
    });
  }

  forward(): Promise<Duplex> {
    return Promise.reject(new Error("a local cluster connection needs no tunnels"));
  }

  close(): void {}
}
