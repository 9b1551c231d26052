import { Elysia } from "elysia";
import { jsonError, type Settings } from "@svc/platform";
import { allowedHostNames, bodyRefusal, hostName, isSafeMethod, originVerdict, requestHost } from "./service";
import { requestUrl } from "./request-url";

/**
 * In front of everything, in every mode (debug included): only requests addressed to this
 * gateway's own names (so a DNS-rebound page is refused), no write that a browser says comes
 * from another site, and no body over its limit — all before anything reads the body. Returns the
 * refusal to answer, or undefined when the request may go on.
 */
export function guardCheck(settings: Pick<Settings, "host" | "allowedHosts">): (request: Request) => Response | undefined {
  const names = allowedHostNames(settings);
  const listed = [...names].join(", ");
  // The Host one client sends is the same on every request: the last one allowed is not looked at again.
  let allowedHost: string | undefined;
  return (request) => {
    const host = requestHost(request);
    if (host !== allowedHost && !names.has(hostName(host))) {
      return jsonError(
        403,
        "host_not_allowed",
        `svc answers to ${listed} only, not ${JSON.stringify(host)}. Behind a reverse proxy, list the name users browse to in SVC_ALLOWED_HOSTS.`,
      );
    }
    allowedHost = host;
    if (!isSafeMethod(request.method) && originVerdict(request, settings.allowedHosts) === "cross") {
      return jsonError(403, "cross_origin", "This request came from a page of another site and was refused; use the svc UI itself, the CLI or the API.");
    }
    const refusal = bodyRefusal(request, requestUrl(request).pathname);
    if (refusal) return jsonError(refusal.status, refusal.code, refusal.message, { connection: "close" });
  };
}

/** The guard (guardCheck) in front of every route of the app. */
export function requestGuard(check: (request: Request) => Response | undefined) {
  return new Elysia({ name: "gateway/guard" }).onRequest(({ request }) => check(request));
}
