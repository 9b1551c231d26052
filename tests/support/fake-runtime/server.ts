/**
 * A stand-in inference server for orchestrator tests: speaks the runtimes' start-up arguments and
 * /health, can be told to start slowly or crash, reports the sandbox it runs in (/sandbox), checks
 * its --api-key-file key, lists a folder and tries to write there (/folder?dir=), sets a cookie, and streams slowly on /slow-stream. (End-to-end tests use
 * the real runtimes.)
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const host = option("--host") ?? "127.0.0.1";
const port = Number(option("--port") ?? 8000);
const startDelay = Number(option("--start-delay-ms") ?? 0);
const crashAfter = option("--crash-after-ms");
const unhealthyAfter = option("--unhealthy-after-ms");
const started = Date.now();
const keyFile = option("--api-key-file");
const apiKey = keyFile ? (await Bun.file(keyFile).text()).trim() : undefined;

/** What the server may do where it runs: its user, capabilities, and which folders it can write. */
function sandbox() {
  const status = readFileSync("/proc/self/status", "utf8");
  const field = (name: string) => status.match(new RegExp(`^${name}:\\s*(.*)$`, "m"))?.[1].trim();
  const writable = (dir: string) => {
    try {
      writeFileSync(`${dir}/.svc-write-test`, "x");
      return true;
    } catch {
      return false;
    }
  };
  return { uid: process.getuid!(), gid: process.getgid!(), capEff: field("CapEff"), noNewPrivs: field("NoNewPrivs"), rootWritable: writable(""), tmpWritable: writable("/tmp") };
}

/** What the server sees of a folder (e.g. a --mount): its files, and whether it can write there. */
function folder(dir: string) {
  try {
    const files = readdirSync(dir).sort();
    let writable = true;
    try {
      writeFileSync(`${dir}/.svc-write-test`, "x");
    } catch (error) {
      writable = false;
      return { files, writable, error: (error as Error).message };
    }
    return { files, writable };
  } catch (error) {
    return { files: null, writable: false, error: (error as Error).message };
  }
}

/** A chat completion streamed slowly: one chunk every `every` ms for `total` ms, then [DONE]. */
function slowStream(total: number, every: number): Response {
  const encoder = new TextEncoder();
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent * every >= total) {
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
        return;
      }
      await Bun.sleep(every);
      sent++;
      controller.enqueue(encoder.encode(`data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: `chunk ${sent} ` } }] })}\n\n`));
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

console.log(`fake runtime: args ${JSON.stringify(args)}`);
Bun.serve({
  hostname: host,
  port,
  // As the real runtimes: a slow stream is not cut.
  idleTimeout: 0,
  fetch(request) {
    const path = new URL(request.url).pathname;
    const age = Date.now() - started;
    const ready = age >= startDelay && (unhealthyAfter === undefined || age < Number(unhealthyAfter));
    if (path === "/health") return new Response(ready ? "ok" : "loading", { status: ready ? 200 : 503 });
    if (path === "/args") return Response.json(args);
    if (path === "/sandbox") return Response.json(sandbox());
    if (path === "/folder") return Response.json(folder(new URL(request.url).searchParams.get("dir") ?? "/"));
    const url = new URL(request.url);
    if (path === "/slow-stream") return slowStream(Number(url.searchParams.get("total") ?? 1000), Number(url.searchParams.get("every") ?? 100));
    const authorization = request.headers.get("authorization");
    const headers = { "set-cookie": "fake=1; Path=/", "content-type": "application/json" };
    return new Response(JSON.stringify({ path, method: request.method, authorization, authorized: apiKey !== undefined && authorization === `Bearer ${apiKey}` }), { headers });
  },
});
console.log(`fake runtime listening on ${host}:${port}`);
if (crashAfter) {
  setTimeout(() => {
    console.error("fake runtime: boom, crashing on purpose");
    process.exit(3);
  }, Number(crashAfter));
}
