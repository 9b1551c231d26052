/**
 * The REST API fuzzed from its own document: for every operation, fast-check generates valid
 * requests and invalid ones (one thing broken: the token, the body, a parameter) from the served
 * document's schemas and sends them to a running app (debug off, Docker, a fake hub). Every answer
 * must be documented and match its schema (the checked fetch), none may be a 5xx or show a stack
 * trace, invalid requests must be refused with a 4xx, and a refused request must change no record.
 * Bounded per operation in count and time; the seed is fixed (SVC_FUZZ_SEED picks another).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { ensureDocker, REPO_ROOT, servedDocument, startFakeHub, startSvc, tempHome, tinyRepo, type FakeHub, type RunningSvc } from "@svc/testing";
import { requestArbitraries, type FuzzRequest } from "@svc/testing/api-fuzz";

const TOKEN = "api-fuzz-test-token-0123456789abcdef";
const HUB_REPO = "acme/tiny-llm";
const SEED = Number(process.env.SVC_FUZZ_SEED ?? 20261124);
const RUNS = { valid: 25, invalid: 25 };
const TIME_PER_OPERATION_MS = 2500;
/** Operations whose valid requests are not sent, and why (their invalid ones are). */
const NOT_SENT_VALID: Record<string, string> = {
  buildImages: "a valid request builds a container image (minutes on a fresh machine); tests/app/services.test.ts builds them for real",
};

let hub: FakeHub;
let app: RunningSvc;
let sandbox: string;

beforeAll(async () => {
  ensureDocker();
  hub = startFakeHub({ repos: [tinyRepo(HUB_REPO, "causal-lm")] });
  sandbox = tempHome("svc-fuzz-");
  for (const dir of ["cache", "home", "user"]) mkdirSync(join(sandbox, dir));
  app = await startSvc({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN, HF_ENDPOINT: hub.url, HOME: join(sandbox, "user") } });
}, 120_000);
afterAll(async () => {
  await app?.cleanup();
  hub?.stop();
});

const send = (request: FuzzRequest) =>
  fetch(`${app.url}${request.target}`, {
    method: request.method,
    headers: {
      ...(request.token === "right" ? { authorization: `Bearer ${TOKEN}` } : request.token === "wrong" ? { authorization: "Bearer wrong-token" } : {}),
      ...(request.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: request.body,
  });

const authorised = (path: string) => fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.json());

/** Every record the app keeps: profiles, services, models, download tasks. */
async function records(): Promise<string> {
  const [profiles, services, models, downloads] = await Promise.all(["/api/profiles", "/api/services?all=true", "/api/models", "/api/models/downloads"].map(authorised));
  return JSON.stringify({ profiles, services, models, downloads });
}

/** Waits for a download task a valid request started, so that its progress is not taken for a change. */
async function settled(taskId: string) {
  for (let i = 0; i < 200; i++) {
    if ((await authorised(`/api/models/downloads/${taskId}`)).state !== "running") return;
    await Bun.sleep(50);
  }
}

test("every operation, fuzzed from the document: answers documented, no 5xx, invalid requests refused, refusals change nothing", async () => {
  const document = await servedDocument(app.url, TOKEN);
  const inSandbox = fc.oneof(
    { arbitrary: fc.constantFrom(join(sandbox, "home"), join(sandbox, "cache")), weight: 4 },
    { arbitrary: fc.stringMatching(/^[a-z]{1,8}$/).map((name) => join(sandbox, name)), weight: 1 },
    { arbitrary: fc.constant("relative/path"), weight: 1 },
  );
  const ctx = {
    defs: document.doc.components.schemas,
    // Paths stay in the sandbox and slurm hosts on this machine (host = localhost needs no SSH).
    confined: {
      ...Object.fromEntries(["home_dir", "cache_dir", "home", "cache", "identity_file", "inputDir"].map((key) => [key, inSandbox])),
      host: fc.constant("localhost"),
    },
    overrides: {
      // Names and schemas svc accepts often enough to reach past its own checks, and any text.
      name: fc.oneof(
        { arbitrary: fc.constant("default"), weight: 1 },
        { arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/), weight: 3 },
        { arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }), weight: 1 },
      ),
      schema: fc.oneof(fc.constantFrom("local", "slurm"), fc.string({ maxLength: 10 })),
      repo: fc.oneof(fc.constant(HUB_REPO), fc.string({ minLength: 1, maxLength: 20 })),
    },
  };
  const figures: Array<{ operation: string; valid: number; invalid: number; statuses: Record<number, number> }> = [];
  let baseline = await records();
  let refusedChanges = 0;

  // Profiles first: their valid requests (among them the document's examples) create the default profile the others act on.
  const operations = document.operations().sort((a, b) => Number(b.path === "/api/profiles") - Number(a.path === "/api/profiles"));
  for (const op of operations) {
    const id = op.operation.operationId as string;
    const row = { operation: id, valid: 0, invalid: 0, statuses: {} as Record<number, number> };
    figures.push(row);
    const { valid, invalid } = requestArbitraries(op, ctx);
    const check = async (request: FuzzRequest) => {
      const response = await send(request); // the checked fetch: an undocumented answer throws here
      const text = await response.text();
      const label = `${id} ${request.method} ${request.target.slice(0, 120)}${request.broken ? ` (${request.broken})` : ""} → ${response.status}: ${text.slice(0, 300)}`;
      row[request.broken ? "invalid" : "valid"]++;
      row.statuses[response.status] = (row.statuses[response.status] ?? 0) + 1;
      expect(response.status, label).toBeLessThan(500);
      expect(text, label).not.toMatch(/\n\s+at .+:\d+/);
      if (request.broken) expect(response.status, label).toBeGreaterThanOrEqual(400);
      if (response.status >= 400) {
        const now = await records();
        if (now !== baseline) refusedChanges++;
        expect(now, `${label}\nchanged the records`).toBe(baseline);
      } else {
        if (id === "startDownload") await settled(JSON.parse(text).id);
        baseline = await records();
      }
    };
    const options = { seed: SEED, interruptAfterTimeLimit: TIME_PER_OPERATION_MS, endOnFailure: true };
    if (!NOT_SENT_VALID[id]) await fc.assert(fc.asyncProperty(valid, check), { ...options, numRuns: RUNS.valid });
    if (invalid) await fc.assert(fc.asyncProperty(invalid, check), { ...options, numRuns: RUNS.invalid });
  }

  const total = figures.reduce((sum, row) => sum + row.valid + row.invalid, 0);
  const fivexx = figures.reduce((sum, row) => sum + Object.entries(row.statuses).filter(([status]) => Number(status) >= 500).reduce((n, [, count]) => n + count, 0), 0);
  console.log(
    [
      `API fuzz (seed ${SEED}): ${total} requests over ${figures.length} operations; 5xx: ${fivexx}; undocumented answers: 0; refused requests that changed a record: ${refusedChanges}`,
      "operation                 valid invalid  answers",
      ...figures.map(
        (row) =>
          `${row.operation.padEnd(25)} ${String(row.valid).padStart(5)} ${String(row.invalid).padStart(7)}  ${Object.entries(row.statuses)
            .map(([status, count]) => `${status}×${count}`)
            .join(" ")}${NOT_SENT_VALID[row.operation] ? `  (valid ones not sent: ${NOT_SENT_VALID[row.operation]})` : ""}`,
      ),
    ].join("\n"),
  );
  expect(figures.length).toBe(document.operations().length);
  expect(figures.every((row) => row.valid + row.invalid > 0)).toBe(true);
  expect(fivexx).toBe(0);
  // docs/rest-api.md quotes a run: it must be of the document as served now (rerun and update it when an operation is added).
  const quoted = readFileSync(`${REPO_ROOT}/docs/rest-api.md`, "utf8").match(/(\d+) requests over (\d+) operations/);
  expect(Number(quoted?.[2]), "the operations of the run docs/rest-api.md quotes").toBe(figures.length);
}, 180_000);
