/**
 * Every answer a test gets from an svc app is checked against the OpenAPI document that app serves:
 * an answer the document does not describe (status, media type, body) throws a ContractViolation
 * in the test that got it. `startSvc` registers each app it starts; the preload
 * (tests/setup/preload.ts) makes `fetch` the checked one, so the typed client, the openai client and
 * plain fetch calls are all checked. Requests that are no operation of the document (UI pages,
 * /proxy/…, unknown paths) pass unchecked.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { INTERNAL_SECRET_HEADER, SERVICE_OPENAPI_PATH, SERVICES } from "@svc/contracts";
import type { ApiDocument } from "./api-document";

/** The document reader (ajv, ~40 ms), loaded by the first check rather than by every test file's preload. */
const reader = () => require("./api-document") as typeof import("./api-document");

const rawFetch: typeof fetch = globalThis.fetch;
const documents = new Map<string, ApiDocument>();

/** Whether the document has the routes of every internal service (a part that was down is missing). */
const complete = (document: ApiDocument) =>
  SERVICES.every(({ apiPrefixes }) => apiPrefixes.every((prefix) => document.operations().some((op) => op.path === prefix || op.path.startsWith(`${prefix}/`))));

/** The document an app serves at /api/openapi.json, once every part of it answers. */
export async function servedDocument(url: string, token?: string, ms = 10_000): Promise<ApiDocument> {
  const deadline = Date.now() + ms;
  for (;;) {
    const response = await rawFetch(`${url}/api/openapi.json`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (!response.ok) throw new Error(`${url}/api/openapi.json answered ${response.status}: ${await response.text()}`);
    const document = new (reader().ApiDocument)(await response.json());
    if (complete(document) || Date.now() > deadline) return document;
    await Bun.sleep(100);
  }
}

/** The token a test app started with `args` and `env` in `home` requires, if any. */
export function appToken(home: string, env: Record<string, string | undefined> = {}, args: string[] = []): string | undefined {
  const file = join(home, "auth_token");
  const option = args.indexOf("--auth-token");
  const given = option >= 0 ? args[option + 1] : args.find((arg) => arg.startsWith("--auth-token="))?.slice("--auth-token=".length);
  return given || env.SVC_AUTH_TOKEN || env.SVC_TOKEN || (existsSync(file) ? readFileSync(file, "utf8").trim() : undefined);
}

/** From now on, answers from `url` are checked against the document it serves. */
export async function watchApp(url: string, token?: string): Promise<void> {
  documents.set(new URL(url).origin, await servedDocument(url, token));
}

export function unwatchApp(url: string): void {
  documents.delete(new URL(url).origin);
}

function requestLine(input: RequestInfo | URL, init?: RequestInit): { method: string; url: string } {
  if (input instanceof Request) return { method: init?.method ?? input.method, url: input.url };
  return { method: init?.method ?? "GET", url: String(input) };
}

/** Throws a ContractViolation naming each way `response` differs from what `document` says. */
export async function assertDocumented(document: ApiDocument, method: string, url: string, response: Response): Promise<void> {
  const problems = await document.check(method, url, response);
  if (problems.length > 0) throw new (reader().ContractViolation)(`${method} ${url} got an answer the OpenAPI document does not describe:\n  ${problems.join("\n  ")}`);
}

/** `fetch` that checks every answer of a watched app against its document. */
export const checkedFetch = Object.assign(
  async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await rawFetch(input, init);
    const { method, url } = requestLine(input, init);
    const document = URL.canParse(url) ? documents.get(new URL(url).origin) : undefined;
    if (document && method !== "HEAD") await assertDocumented(document, method, url, response);
    return response;
  },
  { preconnect: rawFetch.preconnect },
) as typeof fetch;

/** Makes the global fetch the checked one (the preload does this for every test file). */
export function installContractCheck(): void {
  globalThis.fetch = checkedFetch;
}

/**
 * An internal service's `handle`, checked against the service's own part of the document: for
 * tests that call a service app in process (createServiceApp), with its internal secret.
 */
export async function checkedHandle(app: { handle(request: Request): Promise<Response> }, internalSecret: string) {
  const part = await (await app.handle(new Request(`http://service${SERVICE_OPENAPI_PATH}`, { headers: { [INTERNAL_SECRET_HEADER]: internalSecret } }))).json();
  const document = new (reader().ApiDocument)(part);
  return async (request: Request): Promise<Response> => {
    const response = await app.handle(request);
    await assertDocumented(document, request.method, request.url, response);
    return response;
  };
}
