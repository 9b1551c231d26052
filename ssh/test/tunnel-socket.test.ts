/**
 * A tunnel's local connection when the SSH connection drops under its channel: a request on its
 * way goes again over a new channel, and so does the next request on an idle connection; an answer
 * cut midway and the server's own close end the local connection. The channels here are loopback TCP connections to a server of
 * the test, "dropped" the way a restarted sshd drops them.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { connect, createServer, type Server, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { Tunnels } from "../src";

/** What the server does with a request that arrived on its `connection`-th connection (0 first). */
type Handling = (request: string, connection: number, socket: Socket) => void;

const answer = (text: string) => `HTTP/1.1 200 OK\r\ncontent-length: ${text.length}\r\n\r\n${text}`;

/** forward() as a loopback connection to the server; drop() ends the open ones as a dropped SSH connection does. */
class Forwarding {
  opened = 0;
  private open: Socket[] = [];
  private readonly dropped = new WeakSet<Duplex>();
  constructor(private readonly port: () => number) {}
  forward(): Promise<Duplex> {
    return new Promise((resolve, reject) => {
      const channel = connect(this.port(), "127.0.0.1", () => {
        this.opened++;
        this.open.push(channel);
        resolve(channel);
      });
      channel.once("error", reject);
    });
  }
  droppedUnder(channel: Duplex) {
    return this.dropped.has(channel);
  }
  drop() {
    for (const channel of this.open.splice(0)) {
      this.dropped.add(channel);
      channel.destroy();
    }
  }
}

let server: Server;
let handle: Handling;
/** Each request the server received, by the connection it came on. */
let received: { connection: number; request: string }[];
let forwarding: Forwarding;
/** Connections the server accepted in this test. */
let connections = 0;
let tunnels: Tunnels;
let localPort: number;

beforeAll(async () => {
  server = createServer((socket) => {
    const connection = connections++;
    socket.on("data", (data) => {
      received.push({ connection, request: data.toString() });
      handle(data.toString(), connection, socket);
    });
    socket.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  forwarding = new Forwarding(() => (server.address() as { port: number }).port);
  tunnels = new Tunnels(forwarding);
  localPort = await tunnels.ensure("job", "127.0.0.1", 1);
});

beforeEach(() => {
  received = [];
  connections = 0;
  forwarding.opened = 0;
});

afterEach(() => {
  forwarding.drop();
});

afterAll(() => {
  tunnels.closeAll();
  server.close();
});

/** A client's kept-alive connection to the local port: `ask` sends a request and resolves with the answer, or with "closed". */
async function client() {
  const socket = connect(localPort, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  let heard = "";
  let closed = false;
  let notify = () => {};
  socket.on("data", (data) => {
    heard += data.toString();
    notify();
  });
  socket.on("close", () => {
    closed = true;
    notify();
  });
  socket.on("error", () => {});
  const next = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      notify = () => done() && resolve();
      notify();
    });
  return {
    socket,
    async ask(request: string): Promise<string> {
      heard = "";
      socket.write(request);
      await next(() => closed || /\r\n\r\n(ok|second)$/.test(heard));
      return closed && !heard ? "closed" : heard;
    },
    closed: () => next(() => closed),
  };
}

const GET = "GET /a HTTP/1.1\r\nhost: job\r\n\r\n";
const CHAT = 'POST /v1/chat/completions HTTP/1.1\r\nhost: job\r\ncontent-length: 2\r\n\r\n{}';

describe("a tunnel's local connection when the SSH connection drops under it", () => {
  test("a request on its way goes again over a new channel, and its answer comes on the same local connection", async () => {
    handle = (request, connection, socket) => {
      if (request.startsWith("POST") && connection === 0) forwarding.drop();
      else socket.write(answer(request.startsWith("POST") ? "second" : "ok"));
    };
    const kept = await client();
    expect(await kept.ask(GET)).toEndWith("ok");
    expect(await kept.ask(CHAT)).toBe(answer("second"));
    expect(kept.socket.destroyed).toBe(false);
    expect(forwarding.opened).toBe(2);
    expect(received.map((r) => [r.connection, r.request.split(" ")[0]])).toEqual([
      [0, "GET"],
      [0, "POST"],
      [1, "POST"],
    ]);
    expect(received[2].request).toBe(CHAT);
    kept.socket.destroy();
  });

  test("an idle connection stays open a moment: a request sent on it just after the drop goes over a new channel", async () => {
    handle = (request, _connection, socket) => socket.write(answer(request.startsWith("POST") ? "second" : "ok"));
    const idle = await client();
    expect(await idle.ask(GET)).toEndWith("ok");
    forwarding.drop();
    await Bun.sleep(100);
    expect(await idle.ask(CHAT)).toBe(answer("second"));
    expect(forwarding.opened).toBe(2);
    expect(received.map((r) => [r.connection, r.request.split(" ")[0]])).toEqual([
      [0, "GET"],
      [1, "POST"],
    ]);
    idle.socket.destroy();
  });

  test("an idle connection with no next request ends about a second after the drop, nothing re-opened", async () => {
    handle = (_request, _connection, socket) => socket.write(answer("ok"));
    const idle = await client();
    expect(await idle.ask(GET)).toEndWith("ok");
    const droppedAt = Date.now();
    forwarding.drop();
    await idle.closed();
    expect(Date.now() - droppedAt).toBeGreaterThanOrEqual(900);
    expect(Date.now() - droppedAt).toBeLessThan(3000);
    expect(forwarding.opened).toBe(1);
  });

  test("an answer cut midway ends the local connection, and the request is not sent again", async () => {
    handle = (_request, _connection, socket) => {
      socket.write("HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npart", () => setTimeout(() => forwarding.drop(), 20));
    };
    const cut = await client();
    const heard = await cut.ask(CHAT);
    expect(heard).toEndWith("part");
    await cut.closed();
    await Bun.sleep(50);
    expect(forwarding.opened).toBe(1);
    expect(received).toHaveLength(1);
  });

  test("the server closing the connection (no drop) ends the local connection, without sending the request again", async () => {
    handle = (_request, _connection, socket) => socket.end();
    const refused = await client();
    expect(await refused.ask(CHAT)).toBe("closed");
    await Bun.sleep(50);
    expect(forwarding.opened).toBe(1);
    expect(received).toHaveLength(1);
  });
});
