import type { DockerApi } from "./docker-api";
import { DockerError } from "./docker-api";
import type { DockerNetwork } from "./container-config";

/**
 * How services' ports are reached: published on 127.0.0.1 from the container's own network when
 * the Engine has a bridge network (the server then shares nothing with this machine's loopback),
 * else host networking with the server bound to 127.0.0.1 (Engines run with `--bridge=none`).
 * SVC_DOCKER_NETWORK=publish|host decides instead. Asked once, when first needed.
 */
export class NetworkMode {
  private decided: DockerNetwork | undefined;

  constructor(
    private readonly api: DockerApi,
    private readonly configured: DockerNetwork | undefined,
  ) {
    this.decided = configured;
  }

  async get(): Promise<DockerNetwork> {
    if (this.decided) return this.decided;
    try {
      await this.api.raw("GET", "/networks/bridge");
      this.decided = "publish";
    } catch (error) {
      if (!(error instanceof DockerError && error.engineStatus === 404)) throw error;
      this.decided = "host";
    }
    return this.decided;
  }

  /** The mode in use, or null while the Engine cannot be asked. */
  async known(): Promise<DockerNetwork | null> {
    return this.get().catch(() => null);
  }

  static fromSetting(value: string | undefined): DockerNetwork | undefined {
    return value === "publish" || value === "host" ? value : undefined;
  }
}
