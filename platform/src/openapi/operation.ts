import { Type, type TSchema, type TString } from "@sinclair/typebox";
import { ErrorBody } from "@svc/contracts";
import { MEDIA_TYPE_KEY } from "./json-schema";

/** Error statuses a route can declare. 400, 401 and 503 need not be: every route gets them where they apply. */
export type ErrorStatus = 400 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 502 | 503 | 504;

export interface OperationSpec<Ok extends Record<number, TSchema>, Errors extends Partial<Record<ErrorStatus, string>>> {
  /** One line: what the operation does. */
  summary: string;
  description?: string;
  tags: string[];
  /** The answers of the route's normal work by status (200, 201, 202, 204 with `NO_CONTENT`). */
  ok: Ok;
  /** What an `ok` answer means, where its schema's description does not say it. */
  okDescriptions?: Partial<Record<keyof Ok, string>>;
  /** Headers of an `ok` answer, by status: each one's description (their values are strings). */
  okHeaders?: Partial<Record<keyof Ok, Record<string, string>>>;
  /**
   * Each error the route's own logic can answer, by status, with when (and which `error` codes):
   * the body is always ErrorBody. Not needed: 400 for a request that does not match the route's
   * schemas (added to every route with parameters or a body), 401 and 503 (added by the gateway).
   */
  errors?: Errors;
  /** Answers without the auth token (only /api/health). */
  public?: boolean;
}

export type OperationResponses<Ok, Errors> = Ok & { [Status in keyof Errors]: typeof ErrorBody };

/**
 * The documentation and response schemas of one route, spread into its Elysia hook next to its
 * params, query and body:
 *
 *     .get("/:name", ({ params }) => service.get(params.name), {
 *       params: ProfileParams,
 *       ...operation("getProfile", { summary: "Show a profile", tags, ok: { 200: Profile }, errors: { 404: "No such profile." } }),
 *     })
 *
 * The operationId is the stable name generated clients call the operation by; the document test
 * requires one on every route, with a summary, tags and the errors the route can answer.
 */
export function operation<const Ok extends Record<number, TSchema>, const Errors extends Partial<Record<ErrorStatus, string>> = {}>(
  operationId: string,
  spec: OperationSpec<Ok, Errors>,
) {
  const errors = Object.entries(spec.errors ?? {}) as Array<[string, string]>;
  const okStatuses = [...new Set([...Object.keys(spec.okDescriptions ?? {}), ...Object.keys(spec.okHeaders ?? {})])];
  const okDescriptions = spec.okDescriptions as Record<string, string> | undefined;
  const described: Array<[string, string | undefined]> = [...okStatuses.map((status): [string, string | undefined] => [status, okDescriptions?.[status]]), ...errors];
  const response = { ...spec.ok, ...Object.fromEntries(errors.map(([status]) => [status, ErrorBody])) } as OperationResponses<Ok, Errors>;
  return {
    response,
    detail: {
      operationId,
      summary: spec.summary,
      description: spec.description,
      tags: spec.tags,
      ...(spec.public ? { security: [] } : {}),
      responses: Object.fromEntries(
        described.map(([status, description]) => {
          const headers = (spec.okHeaders as Record<string, Record<string, string>> | undefined)?.[status];
          // An empty description: the schema's own, or the status's usual one (see document-part).
          return [status, { description: description ?? "", ...(headers ? { headers: Object.fromEntries(Object.entries(headers).map(([name, text]) => [name, { description: text, schema: { type: "string" } }])) } : {}) }];
        }),
      ) as Record<string, { description: string; headers?: Record<string, { description: string; schema: { type: "string" } }> }>,
    },
  };
}

/** The body of a 204 answer. */
export const NO_CONTENT = Type.Void({ description: "No content." });

/** A success answer that is plain text (e.g. a log), not JSON. */
export const textAnswer = (description: string): TString => Type.String({ description, [MEDIA_TYPE_KEY]: "text/plain" });
