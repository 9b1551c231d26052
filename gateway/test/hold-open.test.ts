/**
 * A request passed on to a service keeps its connection when the answer comes back whole and
 * quickly, and lifts its idle timeout (closing the connection after it) when the answer is a stream
 * or was slow in coming.
 */
import { expect, test } from "bun:test";
import { holdOpenIfSlow } from "../src/guard/hold-open";

function recordingServer() {
  const lifted: number[] = [];
  return { lifted, server: { timeout: (_request: Request, seconds: number) => void lifted.push(seconds) } };
}

const request = () => new Request("http://127.0.0.1/proxy/x/v1/models");

test("a whole answer (with a length) keeps the connection and the idle timeout", () => {
  const { lifted, server } = recordingServer();
  const hold = holdOpenIfSlow(request(), server);
  expect(hold.answered(new Response("{}", { headers: { "content-length": "2" } }))).toEqual({});
  expect(hold.settle(new Response("{}")).headers.get("connection")).toBeNull();
  expect(lifted).toEqual([]);
});

test("a streamed answer lifts the idle timeout and closes the connection after it", () => {
  const { lifted, server } = recordingServer();
  const hold = holdOpenIfSlow(request(), server);
  const stream = new Response(new ReadableStream({ start: (controller) => controller.close() }));
  expect(stream.headers.has("content-length")).toBe(false);
  expect(hold.answered(stream)).toEqual({ connection: "close" });
  expect(lifted).toEqual([0]);
  expect(hold.settle(new Response("late error")).headers.get("connection")).toBe("close");
});

test("an answer slower than the lift time: the timeout was lifted, so the connection closes", async () => {
  const { lifted, server } = recordingServer();
  const hold = holdOpenIfSlow(request(), server, 0);
  await new Promise((resolve) => setTimeout(resolve, 0)); // lets the zero-delay lift run first
  expect(lifted).toEqual([0]);
  expect(hold.answered(new Response("{}", { headers: { "content-length": "2" } }))).toEqual({ connection: "close" });
});
