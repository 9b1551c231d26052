import { existsSync, readFileSync } from "node:fs";
import { appUrl, homeLayout, loadSettings, type Settings } from "@svc/platform/config";
import { SvcClient } from "./client";

/** The token a local client uses: SVC_AUTH_TOKEN / SVC_TOKEN, else the file `svc start` wrote. */
export function localToken(settings: Settings): string | undefined {
  if (settings.authToken) return settings.authToken;
  const file = homeLayout(settings.homeDir).tokenFile;
  return existsSync(file) ? readFileSync(file, "utf8").trim() || undefined : undefined;
}

/** A client for the application that the same settings (environment, defaults) describe. */
export function clientFromEnvironment(env: Record<string, string | undefined> = process.env): SvcClient {
  const settings = loadSettings(env);
  return new SvcClient({ baseUrl: appUrl(settings), token: localToken(settings) });
}
