import { loadSettings, type Settings } from "@svc/platform/config";
import { clientFromSettings, type SvcClient } from "@svc/client";
import type { CliContext, Io } from "./io";

/**
 * A command's context (settings and client made when first asked for), and the settings if they were
 * read. `onRequestSent` is called each time the client has sent a request, while its answer is awaited.
 */
export function createContext(
  io: Io,
  env: Record<string, string | undefined>,
  onRequestSent?: () => void,
): { ctx: CliContext; loadedSettings(): Settings | undefined } {
  let settings: Settings | undefined;
  let client: SvcClient | undefined;
  const ctx: CliContext = {
    io,
    env,
    settings: () => (settings ??= loadSettings(env)),
    client: () => (client ??= clientFromSettings(ctx.settings(), onRequestSent ? { fetch: sending(onRequestSent) } : {})),
    emit: (value, json, human) => io.out(json ? JSON.stringify(value, null, 2) : human()),
  };
  return { ctx, loadedSettings: () => settings };
}

/** fetch, calling `then` once the request is on its way. */
function sending(then: () => void): typeof fetch {
  return Object.assign((input: RequestInfo | URL, init?: RequestInit) => {
    const answer = fetch(input, init);
    then();
    return answer;
  }, fetch);
}
