import { DEFAULT_PROFILE, notFound, type Profile } from "@svc/contracts";

/** Where model-svc gets profiles from: profile-svc through the internal client (its errors as they are). Tests pass a fixed set. */
export interface ProfileSource {
  get(name: string): Promise<Profile>;
  list(): Promise<Profile[]>;
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
