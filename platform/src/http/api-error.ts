/** A JSON ErrorBody response, for answers made outside a route handler (guards, the proxy). */
export function jsonError(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: code, message }, { status, headers });
}
