import type { Profile, ProfileChange, ProfileCreate, ProfileUpdate } from "@svc/contracts";
import type { RequestOptions } from "./client";

type Send = <T>(method: string, path: string, options?: RequestOptions) => Promise<T>;

const path = (name: string) => `/api/profiles/${encodeURIComponent(name)}`;

/** /api/profiles: `client.profiles.list()`, `.get(name)`, `.create(input)`, `.update(name, changes)`, `.remove(name)`. */
export class ProfilesApi {
  constructor(private readonly send: Send) {}

  /** Every profile in profiles.cfg; empty before `svc init`. */
  list(): Promise<Profile[]> {
    return this.send("GET", "/api/profiles");
  }

  get(name: string): Promise<Profile> {
    return this.send("GET", path(name));
  }

  /** Runs the profile's checks (folders; SSH for slurm) and stores it; ApiError 4xx says what failed. */
  create(input: ProfileCreate): Promise<ProfileChange> {
    return this.send("POST", "/api/profiles", { body: input });
  }

  /** Changes attributes (omitted ones stay); name and schema cannot change. */
  update(name: string, changes: ProfileUpdate): Promise<ProfileChange> {
    return this.send("PUT", path(name), { body: changes });
  }

  remove(name: string): Promise<void> {
    return this.send("DELETE", path(name));
  }
}
