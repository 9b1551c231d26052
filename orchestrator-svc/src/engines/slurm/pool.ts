import type { SlurmProfile } from "@svc/contracts";
import type { ConnectOptions } from "@svc/ssh";
import type { Engine, LaunchSpec, Observation, Submitted } from "../engine";
import { LocalConnection, SshConnection } from "./connection";
import { SlurmEngine } from "./slurm-engine";

const connectionKey = (p: SlurmProfile) => JSON.stringify([p.host, p.user, p.port ?? null, p.identity_file ?? null]);

/**
 * The engine of one slurm profile, the same object for as long as the application runs (the
 * reconciler groups services by engine, so this is what makes it one status call per profile).
 * It holds one SlurmEngine, i.e. one SSH connection; when the profile's host, user, port or key
 * change it makes a new one. Before it has seen the profile (e.g. after a restart) it asks for it.
 */
export class ProfileSlurmEngine implements Engine {
  readonly kind = "slurm" as const;
  private current: { key: string; engine: SlurmEngine } | undefined;

  constructor(
    readonly profileName: string,
    private readonly loadProfile: (name: string) => Promise<SlurmProfile>,
    private readonly ssh: ConnectOptions,
  ) {}

  /** The engine for this profile as given now (and remembers it). */
  use(profile: SlurmProfile): SlurmEngine {
    const key = connectionKey(profile);
    if (this.current && this.current.key === key) {
      this.current.engine.update(profile);
      return this.current.engine;
    }
    this.current?.engine.close();
    const connection =
      profile.host === "localhost"
        ? new LocalConnection()
        : new SshConnection({ host: profile.host, user: profile.user, port: profile.port, identityFile: profile.identity_file }, this.ssh);
    const engine = new SlurmEngine(profile, connection);
    this.current = { key, engine };
    return engine;
  }

  async engine(): Promise<SlurmEngine> {
    return this.current?.engine ?? this.use(await this.loadProfile(this.profileName));
  }

  render(spec: LaunchSpec): string {
    if (!this.current) throw new Error(`the slurm profile ${this.profileName} is not loaded yet`);
    return this.current.engine.render(spec);
  }
  async submit(spec: LaunchSpec): Promise<Submitted> {
    return (await this.engine()).submit(spec);
  }
  async inspect(handles: string[]): Promise<Map<string, Observation>> {
    return (await this.engine()).inspect(handles);
  }
  async stop(handle: string): Promise<void> {
    return (await this.engine()).stop(handle);
  }
  async logs(handle: string, options: { follow: boolean; tail?: number }): Promise<ReadableStream<Uint8Array>> {
    return (await this.engine()).logs(handle, options);
  }
  async release(handle: string): Promise<void> {
    return (await this.engine()).release(handle);
  }
  async adopt(serviceIds: string[]): Promise<Map<string, string>> {
    return (await this.engine()).adopt(serviceIds);
  }

  close() {
    this.current?.engine.close();
    this.current = undefined;
  }
}

/** One ProfileSlurmEngine per slurm profile name, made on first use. */
export class SlurmEngines {
  private readonly engines = new Map<string, ProfileSlurmEngine>();

  constructor(
    private readonly loadProfile: (name: string) => Promise<SlurmProfile>,
    private readonly ssh: ConnectOptions = {},
  ) {}

  byName(name: string): ProfileSlurmEngine {
    let engine = this.engines.get(name);
    if (!engine) this.engines.set(name, (engine = new ProfileSlurmEngine(name, this.loadProfile, this.ssh)));
    return engine;
  }

  forProfile(profile: SlurmProfile): ProfileSlurmEngine {
    const engine = this.byName(profile.name);
    engine.use(profile);
    return engine;
  }

  closeAll() {
    for (const engine of this.engines.values()) engine.close();
    this.engines.clear();
  }
}
