import { appUrl, homeLayout, loadSettings, type Settings } from "@svc/platform/config";
import { SvcClient, type SvcClientOptions } from "./client";

/** The token a local client uses: SVC_AUTH_TOKEN / SVC_TOKEN, else the file `svc start` wrote. */
export async function localToken(settings: Settings): Promise<string | undefined> {
  if (settings.authToken) return settings.authToken;
  // Bun.file rather than node:fs, whose loading would be a sixth of `svc ls`'s start-up; its size is
  // a stat made at once (0 when there is no file), where exists() waits for a turn of the event loop.
  const file = Bun.file(homeLayout(settings.homeDir).tokenFile);
  return file.size > 0 ? (await file.text()).trim() || undefined : undefined;
}

/** A client for the application that the same settings (environment, defaults) describe; the token file is read at the first request. */
export function clientFromEnvironment(env: Record<string, string | undefined> = process.env, options: Pick<SvcClientOptions, "fetch"> = {}): SvcClient {
  return clientFromSettings(loadSettings(env), options);
}

/** A client for the application that `settings` describe (as loaded already). */
export function clientFromSettings(settings: Settings, options: Pick<SvcClientOptions, "fetch"> = {}): SvcClient {
  return new SvcClient({ baseUrl: appUrl(settings), token: settings.authToken ?? (() => localToken(settings)), ...options });
}
