import { secretsEqual } from "@svc/platform";
import { ASSET_PREFIX } from "@svc/ui";
import { readCookie, SESSION_COOKIE, sessionValid } from "./session";

export type Access =
  | { kind: "allow"; via: "debug" | "public" | "bearer" | "session" }
  | { kind: "unauthenticated"; reason: string }
  | { kind: "cross-origin" };

const PUBLIC_PATHS = new Set(["/login", "/api/health", "/favicon.ico"]);
const PUBLIC_PREFIXES = [`${ASSET_PREFIX}/`, "/api/docs/assets/"];
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.has(path) || PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** API-style paths answer 401 JSON; everything else is a UI page that redirects to the login form. */
export function isApiPath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/") || path.startsWith("/proxy/");
}

/** A browser write is same-origin when its Origin (or, lacking it, Referer) is this server's own origin. */
export function sameOrigin(request: Request): boolean {
  const own = new URL(request.url).origin;
  const origin = request.headers.get("origin");
  if (origin) return origin === own;
  const referer = request.headers.get("referer");
  if (referer && URL.canParse(referer)) return new URL(referer).origin === own;
  return request.headers.get("sec-fetch-site") === "same-origin";
}

export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/** Header for the gateway token on /proxy/ paths, where Authorization carries the service's own API key. */
export const TOKEN_HEADER = "x-svc-token";

/** Decides whether a request may pass. `token` undefined means debug mode: everything passes. */
export function checkAccess(request: Request, token: string | undefined): Access {
  if (token === undefined) return { kind: "allow", via: "debug" };
  const path = new URL(request.url).pathname;
  if (isPublicPath(path)) return { kind: "allow", via: "public" };
  const proxied = path.startsWith("/proxy/");
  if (proxied && secretsEqual(request.headers.get(TOKEN_HEADER), token)) return { kind: "allow", via: "bearer" };
  const bearer = bearerToken(request);
  if (bearer !== undefined && secretsEqual(bearer, token)) return { kind: "allow", via: "bearer" };
  if (bearer !== undefined && !proxied) {
    return { kind: "unauthenticated", reason: "The bearer token is not this application's auth token." };
  }
  if (sessionValid(token, readCookie(request.headers.get("cookie"), SESSION_COOKIE))) {
    if (!SAFE_METHODS.has(request.method) && !sameOrigin(request)) return { kind: "cross-origin" };
    return { kind: "allow", via: "session" };
  }
  return { kind: "unauthenticated", reason: "This request needs the auth token." };
}
