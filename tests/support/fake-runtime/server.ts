/**
 * A stand-in inference server for orchestrator tests: speaks the runtimes' start-up arguments and
 * /health, and can be told to start slowly or crash. (End-to-end tests use the real runtimes.)
 */
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

console.log(`fake runtime: args ${JSON.stringify(args)}`);
Bun.serve({
  hostname: host,
  port,
  fetch(request) {
    const path = new URL(request.url).pathname;
    const age = Date.now() - started;
    const ready = age >= startDelay && (unhealthyAfter === undefined || age < Number(unhealthyAfter));
    if (path === "/health") return new Response(ready ? "ok" : "loading", { status: ready ? 200 : 503 });
    if (path === "/args") return Response.json(args);
    return Response.json({ path, method: request.method, authorization: request.headers.get("authorization") });
  },
});
console.log(`fake runtime listening on ${host}:${port}`);
if (crashAfter) {
  setTimeout(() => {
    console.error("fake runtime: boom, crashing on purpose");
    process.exit(3);
  }, Number(crashAfter));
}
