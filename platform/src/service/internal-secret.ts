import { ConfigError } from "../config";

/** SVC_INTERNAL_SECRET, which `svc start` generates at each start and hands to every process. */
export function readInternalSecret(env: Record<string, string | undefined>, component: string): string {
  const secret = env.SVC_INTERNAL_SECRET;
  if (!secret || secret.length < 32) {
    throw new ConfigError(`SVC_INTERNAL_SECRET is missing or shorter than 32 characters: ${component} is started by \`svc start\`, which sets it.`);
  }
  return secret;
}
