import { LOOPBACK_HOSTS, type Settings } from "@svc/platform";

/** Largest body of the log-in form: a token and a path. */
export const LOGIN_BODY_LIMIT = 4 * 1024;
/** Largest body of any other request to the API or the UI (JSON and forms). */
export const API_BODY_LIMIT = 1024 * 1024;
/** Largest body sent through /proxy/ to a service (e.g. an audio upload); it streams through. */
export const PROXY_BODY_LIMIT = 1024 * 1024 * 1024;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
export const isSafeMethod = (method: string) => SAFE_METHODS.has(method);

/** The names this gateway answers to: its configured host, loopback, and the listed extra names. */
export function allowedHostNames(settings: Pick<Settings, "host" | "allowedHosts">): Set<string> {
  return new Set([settings.host.toLowerCase(), ...LOOPBACK_HOSTS, ...settings.allowedHosts]);
}

/** `name`, `name:port`, `[v6]` or `[v6]:port` → the name, lower case, without brackets. */
export function hostName(host: string): string {
  const text = host.trim().toLowerCase();
  if (text.startsWith("[")) return text.slice(1, text.indexOf("]") > 0 ? text.indexOf("]") : undefined);
  const colon = text.indexOf(":");
  return colon >= 0 && text.indexOf(":", colon + 1) < 0 ? text.slice(0, colon) : text;
}

/** The Host the client asked for (as sent, with its port). */
export function requestHost(request: Request): string {
  return request.headers.get("host") ?? new URL(request.url).host;
}

/**
 * Where a browser says a request comes from: `same` (this origin), `cross` (another site, a
 * sandboxed frame, or the same host on another port), or `unknown` when it says nothing, as
 * non-browser clients (the CLI, curl, scripts) do. Origin decides when sent; else
 * Sec-Fetch-Site; else Referer.
 */
export function originVerdict(request: Request, allowedHosts: readonly string[]): "same" | "cross" | "unknown" {
  const host = requestHost(request).toLowerCase();
  const fromUrl = (text: string) => {
    if (!URL.canParse(text)) return "cross";
    const url = new URL(text);
    if (url.protocol !== "http:" && url.protocol !== "https:") return "cross";
    return url.host === host || allowedHosts.includes(url.hostname.replace(/^\[|\]$/g, "")) ? "same" : "cross";
  };
  const origin = request.headers.get("origin");
  if (origin !== null) return fromUrl(origin);
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none" ? "same" : "cross";
  const referer = request.headers.get("referer");
  return referer ? fromUrl(referer) : "unknown";
}

export type Refusal = { status: number; code: string; message: string };

/** A request body's size as announced, checked before anything reads it. */
export function bodyRefusal(request: Request, path: string): Refusal | undefined {
  // /proxy/ streams bodies through; /v1/ reads them up to its own limit (V1_BODY_LIMIT).
  if (path.startsWith("/proxy/") || path.startsWith("/v1/")) return undefined;
  const limit = path === "/login" ? LOGIN_BODY_LIMIT : API_BODY_LIMIT;
  const length = request.headers.get("content-length");
  if (length === null) {
    if (request.headers.get("transfer-encoding") === null) return undefined;
    return { status: 411, code: "length_required", message: "Send the request body with a Content-Length header (chunked bodies are taken through /proxy/ only)." };
  }
  const bytes = Number(length);
  if (Number.isInteger(bytes) && bytes >= 0 && bytes <= limit) return undefined;
  return { status: 413, code: "body_too_large", message: `The request body is larger than the ${limit === LOGIN_BODY_LIMIT ? "log-in form's" : "API's"} limit of ${limit / 1024} KiB.` };
}
