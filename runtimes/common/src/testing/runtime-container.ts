/**
 * Test support: runs a runtime image (built once, content-tagged, by images/lib) as a container on
 * the host network with testcontainers, waiting for its "ready on" log line. It runs as svc runs
 * every service (RUNTIME_CONTAINER: a non-root user, no capabilities, a read-only root with a
 * /tmp tmpfs, bounded processes), so the runtimes' tests prove they work like that.
 */
import { chmodSync, statSync } from "node:fs";
import { GenericContainer, Wait, type StartedTestContainer } from "testcontainers";
import { RUNTIME_CONTAINER, runtimeContainerUser } from "@svc/contracts/runtime-container";
import { buildRuntimeImage } from "@svc/images";
import { ensureBaseImage, ensureDocker, prebuiltImage, retryWhilePortTaken, testFileLabels } from "@svc/testing";
import { freePort } from "./runtime-process";

const root = new URL("../../../..", import.meta.url).pathname.replace(/\/$/, "");

export interface RuntimeContainer {
  url: string;
  container: StartedTestContainer;
  stop: () => Promise<void>;
}

/** GenericContainer with the two settings its builder lacks: a read-only root and a PIDs limit. */
class RuntimeSandbox extends GenericContainer {
  constructor(image: string) {
    super(image);
    this.hostConfig.ReadonlyRootfs = true;
    this.hostConfig.PidsLimit = RUNTIME_CONTAINER.pidsLimit;
  }
}

/** Temporary folders are private (0700); like a model cache, a mounted one is readable by all so the container's user can read it. */
function readableByAll(path: string) {
  chmodSync(path, statSync(path).mode | 0o055);
}

class PortTakenError extends Error {}

const READY = /ready on http/;
/** Bun.serve's words when the port is in use. */
const PORT_TAKEN = /EADDRINUSE|Is port \d+ in use/;

export async function startRuntimeContainer(
  runtime: "text-generation" | "speech-recognition",
  args: string[],
  mounts: Array<{ source: string; target: string }>,
): Promise<RuntimeContainer> {
  const prebuilt = prebuiltImage(runtime);
  if (prebuilt) ensureDocker();
  const tag = prebuilt ?? buildRuntimeImage(root, runtime, ensureBaseImage()).tag;
  for (const mount of mounts) readableByAll(mount.source);
  const start = async (port: number): Promise<RuntimeContainer> => {
    const container = await new RuntimeSandbox(tag)
      .withLabels(testFileLabels())
      .withUser(runtimeContainerUser(process.getuid?.() ?? 0, process.getgid?.() ?? 0))
      .withDroppedCapabilities(...RUNTIME_CONTAINER.capDrop)
      .withSecurityOpt(...RUNTIME_CONTAINER.securityOpt)
      .withTmpFs({ ...RUNTIME_CONTAINER.tmpfs })
      .withEnvironment({ ...RUNTIME_CONTAINER.env })
      .withNetworkMode("host")
      .withCommand(["--host", "127.0.0.1", "--port", String(port), ...args])
      .withBindMounts(mounts.map((mount) => ({ ...mount, mode: "ro" as const })))
      .withWaitStrategy(Wait.forLogMessage(new RegExp(`${READY.source}|${PORT_TAKEN.source}`)))
      .withStartupTimeout(60_000)
      .start();
    const logs = Bun.spawnSync(["docker", "logs", container.getId()], { stdout: "pipe", stderr: "pipe", env: process.env });
    const said = `${logs.stdout}\n${logs.stderr}`;
    if (READY.test(said)) return { url: `http://127.0.0.1:${port}`, container, stop: async () => void (await container.stop({ timeout: 5_000 })) };
    await container.stop({ timeout: 1 }).catch(() => undefined);
    throw new PortTakenError(`port ${port} was taken before the runtime bound it:\n${said.slice(-2000)}`);
  };
  // On the host network the runtime must be told its port: a port taken between the pick and the bind is picked again.
  return retryWhilePortTaken(async () => freePort(), start, (error) => error instanceof PortTakenError);
}
