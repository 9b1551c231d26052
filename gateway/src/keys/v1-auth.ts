import { API_KEY_PREFIX } from "@svc/contracts";
import { secretsEqual } from "@svc/platform";
import { bearerToken } from "../auth/service";
import type { Authenticate } from "../openai/caller";
import { proxyError } from "../proxy/proxy-error";
import type { KeyRing } from "./service";

const unauthorized = (message: string) => proxyError(401, "invalid_api_key", message, { "www-authenticate": 'Bearer realm="svc"' });

/**
 * Who a /v1 request comes from. An svc API key is always checked (a removed or expired one is
 * refused, in debug mode too); the svc token passes; with debug off nothing else does, except a
 * logged-in UI session (which the auth guard has checked already).
 */
export function v1Authenticator(keys: KeyRing, token: string | undefined): Authenticate {
  return (request) => {
    const bearer = bearerToken(request.headers.get("authorization"));
    if (bearer === undefined) return { kind: "anonymous" };
    if (token !== undefined && secretsEqual(bearer, token)) return { kind: "token" };
    if (bearer.startsWith(API_KEY_PREFIX)) {
      const check = keys.check(bearer);
      if (check.kind === "valid") return { kind: "key", id: check.row.id, name: check.row.name, models: check.models, policy: check.policy };
      if (check.kind === "expired") return unauthorized(`The API key '${check.row.name}' expired at ${check.row.expiresAt}; ask for a new one (svc key create).`);
      return unauthorized("This API key is not known (it may have been removed); ask for a new one (svc key create).");
    }
    if (token !== undefined) return unauthorized("Send an svc API key (svc key create) or the svc auth token as 'Authorization: Bearer <key>'.");
    return { kind: "anonymous" };
  };
}
