import { Elysia } from "elysia";
import { loginPage } from "@svc/ui";
import { jsonError, secretsEqual } from "@svc/platform";
import { checkAccess, isApiPath, safeNext, sameOrigin, TOKEN_HEADER } from "./service";
import { isProxyPath, proxyError } from "../proxy/proxy-error";
import { isV1Path } from "../openai/paths";
import { clearedSessionCookie, issueSession, readCookie, SESSION_COOKIE, sessionCookie, sessionValid } from "./session";
import { RevokedSessions } from "./revoked-sessions";
import { LoginForm } from "./model";
import { requestUrl } from "../guard/request-url";

export interface AuthOptions {
  /** undefined: debug mode, no authentication. */
  token: string | undefined;
  tokenFile: string;
  /** Where sessions ended by logging out are kept. */
  revokedSessionsFile: string;
  allowedHosts: readonly string[];
}

const htmlHeaders = { "content-type": "text/html; charset=utf-8" };

/**
 * The auth guard: whether a request may pass (undefined) or the answer to give it (401, 403, or the
 * log-in page's redirect). `revoked` holds the sessions ended by logging out (authController's).
 */
export function authGate({ token, tokenFile, allowedHosts }: AuthOptions, revoked: RevokedSessions): (request: Request) => Response | undefined {
  const unauthorizedMessage =
    `Missing or wrong auth token: send the header 'Authorization: Bearer <token>'. ` +
    `The token is SVC_AUTH_TOKEN, or the one svc start wrote to ${tokenFile}.`;
  const proxyUnauthorizedMessage =
    `Missing or wrong auth token: through /proxy/ send the svc token as '${TOKEN_HEADER}: <token>' ` +
    `(Authorization then carries the service's own API key). The token is SVC_AUTH_TOKEN, or the one in ${tokenFile}.`;

  const v1UnauthorizedMessage = `Missing API key: send 'Authorization: Bearer <key>' with a key from 'svc key create', or the svc auth token (${tokenFile}).`;

  return (request) => {
    const access = checkAccess(request, { token, allowedHosts, revoked: (session) => revoked.has(session) });
    if (access.kind === "allow") return;
    const url = requestUrl(request);
    // Clients of /proxy/<service>/… speak OpenAI's API: they get its error shape.
    const error = isProxyPath(url.pathname) || isV1Path(url.pathname) ? proxyError : jsonError;
    if (access.kind === "cross-origin") {
      return error(403, "cross_origin", "This write came from another origin and was refused; use the svc UI itself or an API token.");
    }
    if (isApiPath(url.pathname) || request.method !== "GET") {
      const message = isProxyPath(url.pathname) ? proxyUnauthorizedMessage : isV1Path(url.pathname) ? v1UnauthorizedMessage : unauthorizedMessage;
      return error(401, "unauthorized", message, { "www-authenticate": 'Bearer realm="svc"' });
    }
    const next = encodeURIComponent(url.pathname + url.search);
    return new Response(null, { status: 303, headers: { location: `/login?next=${next}` } });
  };
}

/** The sessions ended by logging out, kept in `options.revokedSessionsFile`. */
export const revokedSessions = (options: Pick<AuthOptions, "revokedSessionsFile">) => new RevokedSessions(options.revokedSessionsFile);

/** The auth guard (in front of every route) and the log-in / log-out routes; `revoked` is shared with any other use of authGate. */
export function authController(options: AuthOptions, revoked = revokedSessions(options)) {
  const { token, tokenFile, allowedHosts } = options;
  const gate = authGate(options, revoked);
  return new Elysia({ name: "gateway/auth" })
    .onRequest(({ request }) => gate(request))
    .get("/login", ({ query, redirect }) => {
      if (token === undefined) return redirect("/", 303);
      return new Response(loginPage({ next: safeNext(query.next), tokenFile }), { headers: htmlHeaders });
    }, { detail: { hide: true } })
    .post(
      "/login",
      ({ body, request }) => {
        const next = safeNext(body.next);
        if (token === undefined) return new Response(null, { status: 303, headers: { location: next } });
        if (!sameOrigin(request, allowedHosts)) {
          return jsonError(403, "cross_origin", "The log-in form was posted from another origin and was refused.");
        }
        if (!secretsEqual(body.token.trim(), token)) {
          return new Response(loginPage({ next, tokenFile, error: "That is not the auth token. Check for a missing character and try again." }), {
            status: 401,
            headers: htmlHeaders,
          });
        }
        return new Response(null, { status: 303, headers: { location: next, "set-cookie": sessionCookie(issueSession(token)) } });
      },
      { body: LoginForm, detail: { hide: true } },
    )
    .post(
      "/logout",
      ({ request }) => {
        const session = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
        if (token !== undefined && session !== undefined && sessionValid(token, session)) revoked.add(session);
        return new Response(null, { status: 303, headers: { location: "/login", "set-cookie": clearedSessionCookie } });
      },
      { detail: { hide: true } },
    );
}
