import { secretsEqual } from "@svc/platform";
import { ASSET_PREFIX, DOCS_PATH } from "@svc/ui";
import { isSafeMethod, originVerdict } from "../guard/service";
import { isV1Path } from "../openai/paths";
import { readCookie, SESSION_COOKIE, sessionValid } from "./session";
import { requestUrl } from "../guard/request-url";

export type Access =
  | { kind: "allow"; via: "debug" | "public" | "bearer" | "session" }
  | { kind: "unauthenticated"; reason: string }
  | { kind: "cross-origin" };

// The documentation pages are the repository's own text, with nothing of this installation in them:
// public like the static assets, so a person can read how to get the token before logging in.
const PUBLIC_PATHS = new Set(["/login", "/api/health", "/favicon.ico", DOCS_PATH]);
const PUBLIC_PREFIXES = [`${ASSET_PREFIX}/`, "/api/docs/assets/", `${DOCS_PATH}/`];

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.has(path) || PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** API-style paths answer 401 JSON; everything else is a UI page that redirects to the login form. */
export function isApiPath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/") || path.startsWith("/proxy/") || isV1Path(path) || path === METRICS_PATH;
}

/** The gateway's Prometheus metrics. */
export const METRICS_PATH = "/metrics";

/** A cookie-authenticated write must show that it comes from this origin (Origin, Sec-Fetch-Site or Referer). */
export function sameOrigin(request: Request, allowedHosts: readonly string[] = []): boolean {
  return originVerdict(request, allowedHosts) === "same";
}

/** The token of an `Authorization: Bearer <token>` header, however the scheme is written. */
export function bearerToken(header: string | null): string | undefined {
  return header?.match(/^\s*Bearer\s+(\S+)\s*$/i)?.[1];
}

const OWN = "http://svc.invalid";

/**
 * Only paths of this site are followed after log-in, so the form cannot redirect elsewhere. The
 * path is read as a browser reads it (which drops tabs and newlines, and takes `\\` for `/`), and
 * anything with white space, control characters or backslashes is refused outright.
 */
export function safeNext(next: string | undefined): string {
  if (!next || !next.startsWith("/") || /[\s\x00-\x1f\x7f\\]/.test(next) || !URL.canParse(next, OWN)) return "/";
  const url = new URL(next, OWN);
  return url.origin === OWN ? `${url.pathname}${url.search}${url.hash}` : "/";
}

/** Header for the gateway token on /proxy/ paths, where Authorization carries the service's own API key. */
export const TOKEN_HEADER = "x-svc-token";

export interface AccessRules {
  /** undefined: debug mode, everything passes. */
  token: string | undefined;
  /** Extra host names (SVC_ALLOWED_HOSTS) a same-origin page may be served under. */
  allowedHosts?: readonly string[];
  /** Whether a session ended by logging out. */
  revoked?: (session: string) => boolean;
}

/** Decides whether a request may pass. */
export function checkAccess(request: Request, { token, allowedHosts = [], revoked = () => false }: AccessRules): Access {
  if (token === undefined) return { kind: "allow", via: "debug" };
  const path = requestUrl(request).pathname;
  if (isPublicPath(path)) return { kind: "allow", via: "public" };
  const proxied = path.startsWith("/proxy/");
  if (proxied && secretsEqual(request.headers.get(TOKEN_HEADER), token)) return { kind: "allow", via: "bearer" };
  const bearer = bearerToken(request.headers.get("authorization"));
  if (bearer !== undefined && secretsEqual(bearer, token)) return { kind: "allow", via: "bearer" };
  // /v1 takes people's API keys too: the /v1 router checks them (and refuses a wrong one).
  if (bearer !== undefined && isV1Path(path)) return { kind: "allow", via: "bearer" };
  if (bearer !== undefined && !proxied) {
    return { kind: "unauthenticated", reason: "The bearer token is not this application's auth token." };
  }
  const session = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
  if (session !== undefined && sessionValid(token, session) && !revoked(session)) {
    if (!isSafeMethod(request.method) && !sameOrigin(request, allowedHosts)) return { kind: "cross-origin" };
    return { kind: "allow", via: "session" };
  }
  return { kind: "unauthenticated", reason: "This request needs the auth token." };
}
