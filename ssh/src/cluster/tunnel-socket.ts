import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { ClusterConnection } from "./connection";

/** Client bytes kept for sending again, at most (the gateway keeps as much of a body to replay). */
const RESEND_LIMIT = 1 << 20;
/** The start of an HTTP/1.x request: its method and a space. */
const REQUEST_START = /^[A-Z]+ /;
/**
 * How long a local connection that was idle when the SSH connection dropped stays open for the
 * client's next request. An HTTP client may pick its kept-alive connection for a request just as
 * the drop closes it; with no answer under way, the request then goes over a new channel.
 */
const NEXT_REQUEST_WAIT_MS = 1000;

/**
 * One connection accepted on a tunnel's local port, carried to the job's server over a forwarded
 * channel of the SSH connection.
 *
 * When the SSH connection drops under the channel (sshd restarted), the local connection goes on
 * over a new channel once the connection is back, as long as nothing of an answer is lost:
 * - a request on its way (what the client sent since the server last sent anything starts an HTTP
 *   request) is sent again, as a browser resends a request on a reused connection that closed
 *   before answering. The server may have received it before the drop cut its own connection, and
 *   then sees it twice.
 * - an idle connection waits NEXT_REQUEST_WAIT_MS for the client's next request.
 * Otherwise (an answer cut midway, or no request in time) the local connection ends, as when the
 * server closes it.
 */
export class TunnelSocket {
  private channel: Duplex | undefined;
  /** What the client sent since the server last sent anything, while it fits RESEND_LIMIT. */
  private unanswered: Buffer[] = [];
  private unansweredBytes = 0;
  private overLimit = false;
  private clientEnded = false;
  /** Set while an idle connection whose channel dropped waits for the client's next request. */
  private waitingForRequest: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly connection: Pick<ClusterConnection, "forward" | "droppedUnder">,
    private readonly host: string,
    private readonly port: number,
  ) {
    socket.pause();
    socket.on("data", (chunk: Buffer) => this.fromClient(chunk));
    socket.on("end", () => {
      this.clientEnded = true;
      this.channel?.end();
    });
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      clearTimeout(this.waitingForRequest);
      this.channel?.destroy();
    });
    this.attach();
  }

  /** Opens a channel (waiting while the connection is re-opened), sends it what is unanswered, and lets the client's bytes flow again. */
  private attach() {
    this.socket.pause();
    this.connection.forward(this.host, this.port).then(
      (channel) => {
        // The client may have gone while the connection was being re-opened.
        if (this.socket.destroyed) {
          channel.destroy();
          return;
        }
        // More came while it was re-opened than can be kept: the request cannot go whole.
        if (this.overLimit) {
          channel.destroy();
          this.socket.destroy();
          return;
        }
        this.channel = channel;
        channel.on("data", (chunk: Buffer) => this.fromServer(channel, chunk));
        channel.on("error", () => channel.destroy());
        channel.on("close", () => this.channelClosed(channel));
        for (const chunk of this.unanswered) channel.write(chunk);
        if (this.clientEnded) channel.end();
        this.socket.resume();
      },
      () => this.socket.destroy(),
    );
  }

  private fromClient(chunk: Buffer) {
    this.keepUnanswered(chunk);
    const channel = this.channel;
    if (channel) {
      if (!channel.write(chunk)) {
        this.socket.pause();
        channel.once("drain", () => this.socket.resume());
      }
    } else if (this.waitingForRequest) {
      clearTimeout(this.waitingForRequest);
      this.waitingForRequest = undefined;
      if (this.resendable()) this.attach();
      else this.end();
    }
  }

  private fromServer(channel: Duplex, chunk: Buffer) {
    this.unanswered = [];
    this.unansweredBytes = 0;
    this.overLimit = false;
    if (!this.socket.write(chunk)) {
      channel.pause();
      this.socket.once("drain", () => channel.resume());
    }
  }

  private keepUnanswered(chunk: Buffer) {
    if (this.overLimit) return;
    this.unansweredBytes += chunk.length;
    if (this.unansweredBytes > RESEND_LIMIT) {
      this.overLimit = true;
      this.unanswered = [];
    } else this.unanswered.push(chunk);
  }

  /** Whether what is unanswered is a request that can go again over a new channel. */
  private resendable(): boolean {
    return !this.overLimit && this.unansweredBytes > 0 && REQUEST_START.test(Buffer.concat(this.unanswered).subarray(0, 16).toString("latin1"));
  }

  private channelClosed(channel: Duplex) {
    if (channel !== this.channel) return;
    this.channel = undefined;
    if (this.socket.destroyed) return;
    if (!this.connection.droppedUnder(channel)) this.end();
    else if (this.resendable()) this.attach();
    else if (this.unansweredBytes === 0 && !this.clientEnded) {
      this.waitingForRequest = setTimeout(() => this.end(), NEXT_REQUEST_WAIT_MS);
      this.socket.resume();
    } else this.end();
  }

  private end() {
    this.socket.end(() => this.socket.destroy());
  }
}
