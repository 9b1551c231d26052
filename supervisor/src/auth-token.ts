import { renameSync, rmSync, writeFileSync } from "node:fs";
import type { Settings } from "@svc/platform/config";
import { randomSecret } from "@svc/platform/security";

export interface AuthTokenDecision {
  /** The token the gateway enforces; undefined in debug mode. */
  token: string | undefined;
  /** True when this start generated it (so it is printed once and written to the token file). */
  generated: boolean;
}

/**
 * Debug on: no token. Debug off: the user's SVC_AUTH_TOKEN, else a new random one (32 bytes)
 * written to the token file with mode 0600. A stale file from an earlier run is removed so the
 * CLI never picks up a token that no longer works.
 */
export function decideAuthToken(settings: Settings, tokenFile: string): AuthTokenDecision {
  if (settings.debug || settings.authToken) {
    rmSync(tokenFile, { force: true });
    return { token: settings.debug ? undefined : settings.authToken, generated: false };
  }
  const token = randomSecret(32);
  const temp = `${tokenFile}.${process.pid}.tmp`;
  writeFileSync(temp, `${token}\n`, { mode: 0o600 });
  renameSync(temp, tokenFile);
  return { token, generated: true };
}
