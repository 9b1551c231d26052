import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { errorResponse } from "./error-handler";

export interface DirectRouteOptions<Body> {
  /** The route's body schema and transform, as given to Elysia. */
  schema: TSchema;
  transform: (context: { body: unknown }) => void;
  /** The route's handler, as given to Elysia: a Response, or an object answered as JSON. */
  handle: (context: { body: Body; request: Request }) => Promise<unknown>;
  /** What the app's request hook checks first (auth, a loaded model). */
  gate: (request: Request) => Response | undefined;
  /** The Elysia app that also has the route: it answers every request the schema refuses. */
  app: { handle: (request: Request) => Promise<Response> };
}

/**
 * A JSON POST route that Bun.serve answers itself rather than through Elysia, for the requests whose
 * first byte a client waits on (a chat's first token): Elysia's routing, hooks and response mapping
 * cost ~0.1 ms there, most of a first token's time beyond llama.cpp's (bench/figures/runtime.ts).
 * It does what the app does for the route, with the same pieces: the gate, the body parsed as JSON,
 * the transform, the schema's check (compiled once), the handler, errors in the OpenAI shape. A
 * request that is not JSON or that the schema refuses goes to the app as it came, so the answer
 * that says what to fix is the app's own.
 */
export function directJsonRoute<Body>(options: DirectRouteOptions<Body>): (request: Request) => Promise<Response> {
  const body = TypeCompiler.Compile(options.schema);
  return async (request) => {
    const denied = options.gate(request);
    if (denied) return denied;
    const text = await request.text();
    const parsed = isJson(request) ? parseJson(text) : undefined;
    if (parsed !== undefined) options.transform({ body: parsed });
    if (parsed === undefined || !body.Check(parsed)) {
      return options.app.handle(new Request(request.url, { method: request.method, headers: request.headers, body: text, signal: request.signal }));
    }
    try {
      const answer = await options.handle({ body: parsed as Body, request });
      return answer instanceof Response ? answer : Response.json(answer);
    } catch (error) {
      return errorResponse(error, request);
    }
  };
}

/** Whether the body is declared JSON, as Elysia reads it (`application/json`, any parameters after it). */
const isJson = (request: Request) => request.headers.get("content-type")?.startsWith("application/json") ?? false;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
