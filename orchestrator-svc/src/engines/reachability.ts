import type { EngineReach, Profile, SlurmProfile } from "@svc/contracts";
import type { DockerApi } from "./docker/docker-api";
import type { SlurmEngine } from "./slurm/slurm-engine";

export interface ReachabilityDeps {
  docker: DockerApi;
  /** Every profile as profile-svc has it now (slurm ones are checked). */
  profiles(): Promise<Profile[]>;
  /** The engine (so the connection) of a slurm profile. */
  slurmFor(profile: SlurmProfile): SlurmEngine;
  /** Between two rounds of checks; default 15 s. */
  intervalMs?: number;
  /** A check taking longer counts as unreachable; default 10 s. */
  timeoutMs?: number;
}

const DEFAULT_INTERVAL_MS = 15_000;
const DEFAULT_TIMEOUT_MS = 10_000;

const withTimeout = <T>(work: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms).unref?.())]);

/**
 * Whether each engine can be reached, checked in the background (at start and then every
 * interval) so /api/health, `svc info` and the UI's overview read it without waiting, and a
 * Docker Engine or cluster that is down never holds up or fails start-up.
 */
export class EngineReachability {
  private known: EngineReach[];
  private round: Promise<void> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly deps: ReachabilityDeps) {
    this.known = [{ engine: "docker", profile: null, target: deps.docker.socketPath || "DOCKER_HOST", state: "unknown", detail: "not checked yet", checkedAt: null }];
  }

  start(): void {
    void this.check();
    this.timer = setInterval(() => void this.check(), this.deps.intervalMs ?? DEFAULT_INTERVAL_MS);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The last results; right after start, waits up to `waitMs` for the first round. */
  async current(waitMs = 1000): Promise<EngineReach[]> {
    if (this.round && this.known.some((entry) => entry.state === "unknown")) {
      await Promise.race([this.round, Bun.sleep(waitMs)]);
    }
    return this.known;
  }

  /** One round: the Docker Engine and every slurm profile's connection, at once. */
  check(): Promise<void> {
    this.round ??= this.checkAll().finally(() => (this.round = undefined));
    return this.round;
  }

  private async checkAll(): Promise<void> {
    const timeout = this.deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const profiles = await this.deps.profiles().catch(() => undefined);
    const slurm = (profiles ?? []).filter((p): p is SlurmProfile => p.schema === "slurm");
    // Without an answer from profile-svc, keep the clusters as last known.
    const previousSlurm = this.known.filter((entry) => entry.engine === "slurm");
    const results = await Promise.all([
      this.checkDocker(timeout),
      ...(profiles ? slurm.map((profile) => this.checkSlurm(profile, timeout)) : previousSlurm.map(async (entry) => entry)),
    ]);
    this.known = results;
  }

  private async checkDocker(timeout: number): Promise<EngineReach> {
    const base = { engine: "docker" as const, profile: null, target: this.deps.docker.socketPath || "DOCKER_HOST" };
    const checkedAt = () => new Date().toISOString();
    try {
      const response = await withTimeout(this.deps.docker.raw("GET", "/version"), timeout, "the Docker Engine");
      const version = (await response.json()) as { Version?: string; ApiVersion?: string };
      return { ...base, state: "reachable", detail: `Docker Engine ${version.Version ?? "?"} (API ${version.ApiVersion ?? "?"})`, checkedAt: checkedAt() };
    } catch (error) {
      return { ...base, state: "unreachable", detail: (error as Error).message.replace(/^Docker: /, ""), checkedAt: checkedAt() };
    }
  }

  private async checkSlurm(profile: SlurmProfile, timeout: number): Promise<EngineReach> {
    const target = profile.host === "localhost" ? "localhost (this machine)" : `${profile.user}@${profile.host}${profile.port ? `:${profile.port}` : ""}`;
    const base = { engine: "slurm" as const, profile: profile.name, target };
    const checkedAt = () => new Date().toISOString();
    try {
      const connection = await this.deps.slurmFor(profile).connection();
      const result = await withTimeout(connection.run("command -v sbatch >/dev/null && echo sbatch || echo none", { timeoutMs: timeout }), timeout + 1000, profile.host);
      const sbatch = result.stdout.trim() === "sbatch";
      return { ...base, state: "reachable", detail: sbatch ? "connected; sbatch found" : "connected, but sbatch is not on the PATH there", checkedAt: checkedAt() };
    } catch (error) {
      return { ...base, state: "unreachable", detail: (error as Error).message, checkedAt: checkedAt() };
    }
  }
}
