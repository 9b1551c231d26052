import { Elysia } from "elysia";
import { jsonError, type Settings } from "@svc/platform";
import { allowedHostNames, bodyRefusal, hostName, isSafeMethod, originVerdict, requestHost } from "./service";

/**
 * In front of everything, in every mode (debug included): only requests addressed to this
 * gateway's own names (so a DNS-rebound page is refused), no write that a browser says comes
 * from another site, and no body over its limit — all before anything reads the body.
 */
export function requestGuard(settings: Pick<Settings, "host" | "allowedHosts">) {
  const names = allowedHostNames(settings);
  const listed = [...names].join(", ");
  return new Elysia({ name: "gateway/guard" }).onRequest(({ request }) => {
    const host = requestHost(request);
    if (!names.has(hostName(host))) {
      return jsonError(
        403,
        "host_not_allowed",
        `svc answers to ${listed} only, not ${JSON.stringify(host)}. Behind a reverse proxy, list the name users browse to in SVC_ALLOWED_HOSTS.`,
      );
    }
    if (!isSafeMethod(request.method) && originVerdict(request, settings.allowedHosts) === "cross") {
      return jsonError(403, "cross_origin", "This request came from a page of another site and was refused; use the svc UI itself, the CLI or the API.");
    }
    const refusal = bodyRefusal(request, new URL(request.url).pathname);
    if (refusal) return jsonError(refusal.status, refusal.code, refusal.message, { connection: "close" });
  });
}
