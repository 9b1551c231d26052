/**
 * svc's own rules for its API document, beyond what OpenAPI and Redocly's recommended rules ask:
 * what every operation must document so that clients can rely on it. The document test applies
 * them to the served document; a route declared without `operation()` (platform) breaks them.
 */
import { ownerOf } from "@svc/contracts";
import type { JsonObject } from "./api-document";

const METHODS = ["get", "put", "post", "delete", "patch"];
const ERROR_BODY = "#/components/schemas/ErrorBody";

/** Each rule an operation breaks, as `<METHOD> <path>: <what is missing>`. */
export function documentRuleProblems(doc: JsonObject): string[] {
  const problems: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as JsonObject)) {
    if (path.length > 1 && path.endsWith("/")) problems.push(`${path}: a path ends with a slash (the canonical spelling has none)`);
    for (const method of METHODS.filter((m) => item[m])) {
      const op = item[method] as JsonObject;
      const where = `${method.toUpperCase()} ${path}`;
      const responses = (op.responses ?? {}) as JsonObject;
      const statuses = Object.keys(responses);
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      if (!op.operationId) problems.push(`${where}: no operationId (declare the route with operation() from @svc/platform)`);
      if (!op.summary) problems.push(`${where}: no summary`);
      if (!Array.isArray(op.tags) || op.tags.length === 0) problems.push(`${where}: no tags`);
      const success = statuses.filter((status) => status.startsWith("2"));
      if (success.length === 0) problems.push(`${where}: no success answer`);
      for (const status of success) {
        if (status !== "204" && !responses[status].content) problems.push(`${where}: its ${status} answer has no content schema`);
      }
      if (!isPublic && !responses["401"]) problems.push(`${where}: needs the token but does not document 401`);
      if ((op.parameters?.length || op.requestBody) && !responses["400"]) problems.push(`${where}: takes input but does not document 400`);
      if (ownerOf(path) && !responses["503"]) problems.push(`${where}: is forwarded to ${ownerOf(path)}, which can be down, but does not document 503`);
      // An error answer is the one error body, or the success answer's own report given with an
      // error status (GET /api/health's 503).
      const json = (status: string) => JSON.stringify(responses[status]?.content?.["application/json"]?.schema);
      for (const status of statuses.filter((s) => s >= "400")) {
        if (json(status) !== JSON.stringify({ $ref: ERROR_BODY }) && !success.some((ok) => json(ok) === json(status))) {
          problems.push(`${where}: its ${status} answer is not the one error body (${ERROR_BODY})`);
        }
      }
    }
  }
  return problems;
}
