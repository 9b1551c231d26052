import type { Duplex } from "node:stream";
import { commandResult, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, type ClusterConnection, type CommandResult, type RunOptions, type SendResult } from "./connection";

export interface LocalOptions {
  /** The environment commands run in (PATH decides which sbatch, squeue… they find); default this process's. */
  env?: Record<string, string | undefined>;
}

/** `host = localhost`: svc runs on the cluster itself, so commands run here, without SSH. */
export class LocalConnection implements ClusterConnection {
  readonly local: boolean = true;
  readonly hostKey = undefined;
  roundTrips = 0;
  bytesSent = 0;

  constructor(private readonly options: LocalOptions = {}) {}

  private spawn(argv: string[], stdin: ReadableStream<Uint8Array> | Uint8Array, stdout: "pipe", timeoutMs?: number) {
    this.roundTrips++;
    return Bun.spawn(argv, { stdin, stdout, stderr: "pipe", env: this.options.env ?? process.env, timeout: timeoutMs });
  }

  private async collect(proc: ReturnType<LocalConnection["spawn"]>, options: RunOptions): Promise<CommandResult> {
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).arrayBuffer(), new Response(proc.stderr).arrayBuffer(), proc.exited]);
    const max = options.maxBytes ?? DEFAULT_MAX_BYTES;
    if (stdout.byteLength > max) throw new Error(`A command on this machine printed more than ${max} bytes.`);
    return commandResult(code, Buffer.from(stdout), Buffer.from(stderr));
  }

  run(script: string, options: RunOptions = {}): Promise<CommandResult> {
    return this.collect(this.spawn(["/bin/sh", "-s"], new TextEncoder().encode(script), "pipe", options.timeoutMs ?? DEFAULT_TIMEOUT_MS), options);
  }

  async send(command: string, data: ReadableStream<Uint8Array> | Uint8Array, options: RunOptions = {}): Promise<SendResult> {
    let bytesSent = 0;
    const counted =
      data instanceof Uint8Array
        ? data
        : data.pipeThrough(
            new TransformStream<Uint8Array, Uint8Array>({
              transform(chunk, controller) {
                bytesSent += chunk.length;
                controller.enqueue(chunk);
              },
            }),
          );
    if (data instanceof Uint8Array) bytesSent = data.length;
    const result = await this.collect(this.spawn(["/bin/sh", "-c", command], counted, "pipe", options.timeoutMs ?? DEFAULT_TIMEOUT_MS), options);
    this.bytesSent += bytesSent;
    return { ...result, bytesSent };
  }

  async stream(script: string): Promise<ReadableStream<Uint8Array>> {
    const proc = this.spawn(["/bin/sh", "-s"], new TextEncoder().encode(script), "pipe");
    const reader = proc.stdout.getReader();
    void new Response(proc.stderr).arrayBuffer();
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

  forward(_host: string, _port: number): Promise<Duplex> {
    return Promise.reject(new Error("a local cluster connection needs no tunnels"));
  }

  droppedUnder(_channel: Duplex): boolean {
    return false;
  }

  close(): void {}
}
