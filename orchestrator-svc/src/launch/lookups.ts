import { ApiError } from "@svc/platform";
import { SvcApiError, SvcUnreachableError, type SvcClient } from "@svc/client";
import type { Model, Profile } from "@svc/contracts";

/** Errors of another service keep their status and message; an unreachable one becomes a 503. */
async function relay<T>(call: () => Promise<T>, service: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof SvcApiError) throw new ApiError(error.status, error.code, error.message, error.details);
    if (error instanceof SvcUnreachableError) throw new ApiError(503, "service_unavailable", `${service} is not answering; try again in a few seconds.`);
    throw error;
  }
}

/** Profiles and model rows, asked of profile-svc and model-svc through the typed client. */
export function registryLookups(client: SvcClient) {
  return {
    profile: (name: string): Promise<Profile> => relay(() => client.profiles.get(name), "profile-svc"),
    models: (profile: string, repo: string): Promise<Model[]> =>
      relay(() => client.models.list({ profile, repo }), "model-svc"),
  };
}
