import { DEFAULT_PROFILE, type Profile } from "@svc/contracts";
import { SvcApiError, SvcClient } from "@svc/client";
import { ApiError, internalFetch, notFound, type Upstreams } from "@svc/platform";

/** Where model-svc gets profiles from: profile-svc, through the typed client. Tests pass a stub. */
export interface ProfileSource {
  get(name: string): Promise<Profile>;
  list(): Promise<Profile[]>;
}

function unavailable(error: unknown): never {
  if (error instanceof SvcApiError) {
    if (error.status === 404) throw notFound(error.message);
    if (error.status < 500) throw new ApiError(error.status === 401 ? 502 : error.status, error.code, error.message);
  }
  throw new ApiError(503, "profile_unavailable", "profile-svc is not answering (it may be restarting); try again in a few seconds.");
}

/** Profiles from profile-svc, called in-process with the internal secret. */
export function profileServiceSource(upstreams: Upstreams, internalSecret: string): ProfileSource {
  const client = new SvcClient({ baseUrl: "http://svc.internal", fetch: internalFetch(upstreams, internalSecret) });
  return {
    get: (name) => client.profiles.get(name).catch(unavailable),
    list: () => client.profiles.list().catch(unavailable),
  };
}

/** A fixed set of profiles (tests, bench). */
export function staticProfileSource(profiles: Profile[]): ProfileSource {
  return {
    async get(name) {
      const profile = profiles.find((p) => p.name === name);
      if (!profile) throw notFound(`No profile named ${name}; \`svc profile ls\` lists them.`);
      return profile;
    },
    list: async () => profiles,
  };
}

export const profileOrDefault = (name: string | undefined) => name || DEFAULT_PROFILE;
