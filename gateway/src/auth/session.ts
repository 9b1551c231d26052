import { createHmac, randomBytes } from "node:crypto";
import { secretsEqual } from "@svc/platform";

export const SESSION_COOKIE = "svc_session";
export const SESSION_TTL_SECONDS = 12 * 60 * 60;

/**
 * Stateless sessions: `<issued>.<nonce>.<mac>` with an HMAC keyed by the auth token, so a
 * gateway restart keeps sessions and a new token ends them all.
 */
function mac(token: string, payload: string): string {
  return createHmac("sha256", token).update(`svc-session:${payload}`).digest("base64url");
}

export function issueSession(token: string, now = Date.now()): string {
  const payload = `${Math.floor(now / 1000)}.${randomBytes(12).toString("base64url")}`;
  return `${payload}.${mac(token, payload)}`;
}

export function sessionValid(token: string, value: string | undefined, now = Date.now()): boolean {
  if (!value) return false;
  const parts = value.split(".");
  if (parts.length !== 3) return false;
  const [issued, nonce, given] = parts;
  const issuedAt = Number(issued);
  if (!Number.isInteger(issuedAt)) return false;
  const age = Math.floor(now / 1000) - issuedAt;
  if (age < 0 || age > SESSION_TTL_SECONDS) return false;
  return secretsEqual(given, mac(token, `${issued}.${nonce}`));
}

/** The part of a session value that names it (`<issued>.<nonce>`), without its MAC. */
export function sessionId(value: string): string | undefined {
  const parts = value.split(".");
  return parts.length === 3 ? `${parts[0]}.${parts[1]}` : undefined;
}

export function sessionCookie(value: string): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_TTL_SECONDS}`;
}

export const clearedSessionCookie = `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;

export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
