import { ErrorBody } from "@svc/contracts";
import { STATUS_DESCRIPTIONS, type OpenApiPart } from "@svc/platform";
import { API_BODY_LIMIT } from "../guard/service";

type Operation = OpenApiPart["paths"][string][string];

export interface RouteInDocument {
  method: string;
  path: string;
  operation: Operation;
  /** Answered by an internal service, to which the gateway forwards it. */
  forwarded: boolean;
}

/**
 * Answers the gateway itself gives in front of routes, whatever route it is: each rule adds its
 * status (with the one error body) to every operation it applies to, unless the route already
 * documents that status. A guard added to the gateway adds its rule here, so the document stays true.
 */
export const GATEWAY_ANSWERS: Array<{ status: string; description: string; appliesTo: (route: RouteInDocument) => boolean }> = [
  {
    status: "401",
    description:
      "Missing or wrong auth token (`unauthorized`): send `Authorization: Bearer <token>`. Not answered in debug mode, where no token is needed.",
    appliesTo: ({ operation }) => !isPublic(operation),
  },
  {
    status: "403",
    description:
      "The request's Host is not one of this application's names (`host_not_allowed`; behind a reverse proxy, list the name in SVC_ALLOWED_HOSTS), or a write came from a page of another site (`cross_origin`).",
    appliesTo: () => true,
  },
  {
    status: "411",
    description: "A body was sent without Content-Length (`length_required`).",
    appliesTo: ({ method }) => method !== "get",
  },
  {
    status: "413",
    description: `The body is larger than the API's limit of ${API_BODY_LIMIT / 1024} KiB (\`body_too_large\`).`,
    appliesTo: ({ method }) => method !== "get",
  },
  {
    status: "503",
    description: `The internal service that answers this is not running (\`service_unavailable\`); ${STATUS_DESCRIPTIONS["503"].replace(/^.*?; /, "")}`,
    appliesTo: ({ forwarded }) => forwarded,
  },
];

const isPublic = (operation: Operation) => Array.isArray(operation.security) && operation.security.length === 0;

const errorAnswer = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ErrorBody.$id}` } } },
});

/** Adds the gateway's own answers to each route of the document. */
export function addGatewayAnswers(routes: RouteInDocument[]): void {
  for (const route of routes) {
    for (const answer of GATEWAY_ANSWERS) {
      if (!answer.appliesTo(route)) continue;
      const own = route.operation.responses[answer.status];
      route.operation.responses[answer.status] = own ? { ...own, description: `${own.description} Also: ${answer.description}` } : errorAnswer(answer.description);
    }
  }
}
