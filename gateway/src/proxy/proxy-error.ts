import { PROXY_PREFIX } from "./paths";

/**
 * An error the gateway itself answers for /proxy/<service>/…, where clients speak OpenAI's API to
 * the service behind it: OpenAI's error shape `{error: {message, type, param, code}}` (what the
 * services answer too), with svc's error code as `code`, the request field at fault as `param`, and
 * as `type` OpenAI's kind of error (a rate limit's is `requests` or `tokens`, a spent budget's `insufficient_quota`).
 */
export function proxyError(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
  param: string | null = null,
  type = status >= 500 ? "server_error" : "invalid_request_error",
): Response {
  return Response.json({ error: { message, type, param, code } }, { status, headers });
}

export const isProxyPath = (path: string) => path.startsWith(PROXY_PREFIX);
