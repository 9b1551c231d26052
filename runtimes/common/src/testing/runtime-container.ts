/**
 * Test support: runs a runtime image (built once, content-tagged, by images/lib) as a container on
 * the host network with testcontainers, waiting for its "ready on" log line.
 */
import { GenericContainer, Wait, type StartedTestContainer } from "testcontainers";
import { buildRuntimeImage } from "@svc/images";
import { ensureBaseImage } from "@svc/testing";
import { freePort } from "./runtime-process";

const root = new URL("../../../..", import.meta.url).pathname.replace(/\/$/, "");

export interface RuntimeContainer {
  url: string;
  container: StartedTestContainer;
  stop: () => Promise<void>;
}

export async function startRuntimeContainer(
  runtime: "text-generation" | "speech-recognition",
  args: string[],
  mounts: Array<{ source: string; target: string }>,
): Promise<RuntimeContainer> {
  const { tag } = buildRuntimeImage(root, runtime, ensureBaseImage());
  const port = freePort();
  const container = await new GenericContainer(tag)
    .withNetworkMode("host")
    .withCommand(["--host", "127.0.0.1", "--port", String(port), ...args])
    .withBindMounts(mounts.map((mount) => ({ ...mount, mode: "ro" as const })))
    .withWaitStrategy(Wait.forLogMessage(/ready on http/))
    .withStartupTimeout(60_000)
    .start();
  return { url: `http://127.0.0.1:${port}`, container, stop: async () => void (await container.stop({ timeout: 5_000 })) };
}
