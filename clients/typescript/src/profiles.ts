import type { ClusterGpus, Profile, ProfileChange, ProfileCreate, ProfileUpdate } from "@svc/contracts";
import type { SvcClient } from "./client";

/** /api/profiles: `client.profiles.list()`, `.get(name)`, `.create(input)`, `.update(name, changes)`, `.remove(name)`, `.gpus(name)`. */
export class ProfilesApi {
  constructor(private readonly client: Pick<SvcClient, "call">) {}

  /** Every profile in profiles.cfg; empty before `svc init`. */
  list(): Promise<Profile[]> {
    return this.client.call("GET /api/profiles", {});
  }

  get(name: string): Promise<Profile> {
    return this.client.call("GET /api/profiles/{name}", { params: { name } });
  }

  /** Runs the profile's checks (folders; SSH for slurm) and stores it; ApiError 4xx says what failed. */
  create(input: ProfileCreate): Promise<ProfileChange> {
    return this.client.call("POST /api/profiles", { body: input });
  }

  /** Changes attributes (omitted ones stay); name and schema cannot change. */
  update(name: string, changes: ProfileUpdate): Promise<ProfileChange> {
    return this.client.call("PUT /api/profiles/{name}", { params: { name }, body: changes });
  }

  remove(name: string): Promise<void> {
    return this.client.call("DELETE /api/profiles/{name}", { params: { name } });
  }

  /** The profile's partitions and GPUs (the last reading; `refresh` reads the cluster again). */
  gpus(name: string, options: { refresh?: boolean } = {}): Promise<ClusterGpus> {
    return this.client.call("GET /api/profiles/{name}/gpus", { params: { name }, query: options.refresh ? { refresh: true } : {} });
  }
}
