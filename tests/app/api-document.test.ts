/**
 * The OpenAPI document a running app serves is valid and complete: swagger-parser and Redocly's
 * linter find nothing wrong, svc's own rules hold for every operation, and the check that every
 * test's answers go through (contract-check.ts) does catch an answer the document does not describe.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { Elysia } from "elysia";
import { createServiceApp } from "@svc/platform";
import { VERSION } from "@svc/contracts";
import { ApiDocument, checkedFetch, ContractViolation, documentRuleProblems, REPO_ROOT, startSvc, watchApp, type RunningSvc } from "@svc/testing";

const TOKEN = "api-document-test-token-0123456789";
let app: RunningSvc;
let doc: Record<string, any>;

beforeAll(async () => {
  app = await startSvc({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN } });
  doc = await (await fetch(`${app.url}/api/openapi.json`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
});
afterAll(() => app?.cleanup());

/** `redocly lint` as a user runs it, on the served document saved in test-artifacts/. */
async function redoclyLint(document: unknown) {
  mkdirSync(join(REPO_ROOT, "test-artifacts"), { recursive: true });
  writeFileSync(join(REPO_ROOT, "test-artifacts", "openapi.json"), JSON.stringify(document, null, 2));
  const cli = Bun.resolveSync("@redocly/cli/bin/cli.js", REPO_ROOT);
  const proc = Bun.spawn([process.execPath, cli, "lint", "test-artifacts/openapi.json", "--format", "json"], {
    cwd: REPO_ROOT,
    // No usage data and no update check: nothing leaves this machine.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (!out.trim().startsWith("{")) throw new Error(`redocly lint printed no report:\n${out}\n${err}`);
  return JSON.parse(out) as { totals: { errors: number; warnings: number; ignored: number }; problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }> };
}

describe("the served OpenAPI document", () => {
  test("is OpenAPI 3.1 with servers, a licence, the app's version and described tags", () => {
    expect(doc.openapi).toBe("3.1.0");
    // (Plain values only: Bun's asymmetric matchers would write themselves into `doc`.)
    expect([doc.info.title, doc.info.version, typeof doc.info.license.name]).toEqual(["svc API", VERSION, "string"]);
    expect(doc.servers.map((server: { url: string }) => server.url)).toEqual(["/"]);
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toEqual(["app", "profiles", "models", "services", "batches", "images", "keys", "endpoints", "usage", "runtimes"]);
  });

  test("swagger-parser validates it without an error", async () => {
    const validated = await SwaggerParser.validate(structuredClone(doc) as never);
    expect(Object.keys(validated.paths ?? {}).length).toBe(Object.keys(doc.paths).length);
  });

  test("redocly lint (recommended rules, redocly.yaml) finds 0 errors and 0 warnings", async () => {
    const report = await redoclyLint(doc);
    const found = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(found).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  }, 60_000);

  test("every operation is named and documents its success, 401, 400 for input, 503 when forwarded, errors as ErrorBody", () => {
    expect(documentRuleProblems(doc)).toEqual([]);
    const ids = Object.values(doc.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain("listServices");
  });

  test("paths are canonical (no trailing slash); the old spelling still answers", async () => {
    expect(Object.keys(doc.paths)).toContain("/api/services");
    expect(Object.keys(doc.paths).filter((path) => path.endsWith("/"))).toEqual([]);
    const headers = { authorization: `Bearer ${TOKEN}` };
    for (const path of ["/api/services", "/api/images"]) {
      const canonical = await fetch(`${app.url}${path}`, { headers });
      const old = await fetch(`${app.url}${path}/`, { headers });
      expect(old.status).toBe(canonical.status);
    }
  });

  test("the rules catch a route declared without operation(): no name, summary, tags or answers", async () => {
    const secret = "x".repeat(40);
    const bare = createServiceApp("profile-svc", secret, [new Elysia().get("/api/profiles/:name/extra", () => "text")]);
    const part = await (await bare.handle(new Request("http://service/openapi.json", { headers: { "x-svc-internal-secret": secret } }))).json();
    const where = "GET /api/profiles/{name}/extra";
    expect(documentRuleProblems(part)).toEqual([
      `${where}: no operationId (declare the route with operation() from @svc/platform)`,
      `${where}: no summary`,
      `${where}: no tags`,
      `${where}: no success answer`,
      `${where}: needs the token but does not document 401`,
      `${where}: takes input but does not document 400`,
      `${where}: is forwarded to profile-svc, which can be down, but does not document 503`,
    ]);
  });
});

describe("the answer check every test's requests go through", () => {
  test("an undocumented status, a body that breaks its schema and a wrong media type each fail the request that got them", async () => {
    const served = new ApiDocument(doc);
    const answers: Record<string, Response> = {
      "/api/info": Response.json({ error: "teapot", message: "short and stout" }, { status: 418 }),
      "/api/profiles": Response.json([{ name: "default", schema: "local" }]),
      "/api/images": new Response("<html>", { headers: { "content-type": "text/html" } }),
    };
    const fake = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request) => {
        const path = new URL(request.url).pathname;
        return path === "/api/openapi.json" ? Response.json(served.doc) : (answers[path] ?? Response.json([]));
      },
    });
    try {
      await watchApp(`http://127.0.0.1:${fake.port}`);
      const problems: string[] = [];
      for (const path of Object.keys(answers)) {
        const caught = await checkedFetch(`http://127.0.0.1:${fake.port}${path}`).then(() => undefined, (error) => error);
        expect(caught).toBeInstanceOf(ContractViolation);
        problems.push(caught.message);
      }
      expect(problems[0]).toContain("not 418");
      expect(problems[1]).toContain("must have required property 'home_dir'");
      expect(problems[2]).toContain("answered text/html, the document says application/json");
      // A documented answer passes, and a path that is no operation is not checked.
      expect((await checkedFetch(`http://127.0.0.1:${fake.port}/api/services`)).status).toBe(200);
      expect((await checkedFetch(`http://127.0.0.1:${fake.port}/not/an/operation`)).status).toBe(200);
    } finally {
      fake.stop(true);
    }
  });
});
