/** Test support: runs a runtime bare, as `bun run runtime:<name> -- …` from the repository root. */
import type { Subprocess } from "bun";

const root = new URL("../../../..", import.meta.url).pathname;

export interface RuntimeProcess {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts the runtime on a free port and resolves once GET /health answers 200. */
export async function startRuntime(name: "text-generation" | "speech-recognition", args: string[]): Promise<RuntimeProcess> {
  const child: Subprocess<"ignore", "pipe", "pipe"> = Bun.spawn(["bun", "run", `runtime:${name}`, "--", "--host", "127.0.0.1", "--port", "0", ...args], {
    cwd: root,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let output = "";
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) output += decoder.decode(read.value, { stream: true });
  };
  void collect(child.stdout);
  void collect(child.stderr);
  const stop = async () => {
    child.kill("SIGTERM");
    await child.exited;
  };

  const deadline = Date.now() + 30_000;
  let url: string | undefined;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`runtime:${name} exited with ${child.exitCode}:\n${output}`);
    url ??= output.match(/listening on (http:\/\/\S+?),/)?.[1];
    if (url) {
      const health = await fetch(`${url}/health`).catch(() => undefined);
      if (health?.status === 200) return { url, output: () => output, stop };
    }
    await Bun.sleep(50);
  }
  await stop();
  throw new Error(`runtime:${name} did not become healthy within 30 s:\n${output}`);
}

/** A free TCP port on loopback (for containers on the host network, which cannot take port 0). */
export function freePort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}
