import type { Duplex } from "node:stream";
import type { HostKeyInfo } from "../connect";

/** What a command printed and how it ended. `stdout` is the output as text; `bytes` as it came. */
export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  bytes: Buffer;
}

export interface RunOptions {
  /** Default 30 s; a command still running then is abandoned and, over SSH, the connection reopened. */
  timeoutMs?: number;
  /** Default 8 MiB; more output than this fails the command instead of being cut silently. */
  maxBytes?: number;
}

/** What `send` moved: how the command ended, and how many bytes went to its standard input. */
export interface SendResult extends CommandResult {
  bytesSent: number;
}

/**
 * The one way svc reaches a Slurm cluster (profile checks, model scans, the Slurm engine, and
 * whatever must be copied there): over one SSH connection, or on this machine when svc runs on the
 * cluster itself (`host = localhost`). Every command is a POSIX sh script; user text in it must be
 * quoted (shellQuote, remotePathWord). Connection failures are SshError, with their kind.
 */
export interface ClusterConnection {
  /** True for `host = localhost`: commands run here, no SSH, and jobs' ports need no tunnel. */
  readonly local: boolean;
  /** Runs a script (given on its standard input to `sh -s`) in one round trip. */
  run(script: string, options?: RunOptions): Promise<CommandResult>;
  /** Runs a script and streams its standard output until it ends or the stream is cancelled. */
  stream(script: string): Promise<ReadableStream<Uint8Array>>;
  /**
   * File transfer: runs `command` with `data` as its standard input, e.g. `cat > file` or
   * `tar -xf - -C dir` for a streamed tar of a whole tree, counting the bytes sent.
   */
  send(command: string, data: ReadableStream<Uint8Array> | Uint8Array, options?: RunOptions): Promise<SendResult>;
  /** A channel to host:port as seen from the cluster's login node (a tunnel; SSH only); while a dropped connection is being re-opened it waits a few seconds for it. */
  forward(host: string, port: number): Promise<Duplex>;
  /** Whether a channel from `forward` ended because the connection under it dropped (sshd restarted), not because the far end closed it. */
  droppedUnder(channel: Duplex): boolean;
  /** The login node's host key once connected (SSH only). */
  readonly hostKey: HostKeyInfo | undefined;
  /** Commands run so far: each one is one SSH round trip when remote. */
  readonly roundTrips: number;
  /** Bytes sent to commands' standard input so far (file transfers). */
  readonly bytesSent: number;
  close(): void;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

/** Collects a command's output, failing once it passes `maxBytes`. */
export class OutputBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly maxBytes: number) {}
  add(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size <= this.maxBytes) this.chunks.push(chunk);
    return this.size <= this.maxBytes;
  }
  get overflowed() {
    return this.size > this.maxBytes;
  }
  get bytes() {
    return Buffer.concat(this.chunks);
  }
}

export function commandResult(code: number | null, stdout: Buffer, stderr: Buffer): CommandResult {
  return { code, bytes: stdout, stdout: stdout.toString("utf8"), stderr: stderr.toString("utf8") };
}

let sshRoundTrips = 0;
/** Commands sent over SSH by every connection of this process so far (the orchestrator counts them per reconcile tick). */
export const sshRoundTripsSoFar = () => sshRoundTrips;
export const countSshRoundTrip = () => {
  sshRoundTrips++;
};
