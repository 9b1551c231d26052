/**
 * The CLI's side of deployments (issue 31): the scaling options of `svc run` and `svc scale`, checked
 * before anything is sent; `svc ls` grouping replicas under their deployment; `svc details` of a
 * deployment; and a ref that names no service tried as a deployment. Against a stub of the API
 * (the whole application is in tests/app/deployments-cli.test.ts).
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { DeploymentDetails, DeploymentRecord, ServiceRecord } from "@svc/contracts";
import { queueReportOf, tempHome } from "@svc/testing";
import { parseRunArgs } from "../src/commands/run/parse-run-args";
import { runHelp } from "../src/commands/run/help";
import { scaleRequestFrom } from "../src/commands/deployments/scaling-options";
import { formatDeploymentDetails } from "../src/commands/deployments/format";
import { lsRows, LS_HEADERS } from "../src/commands/services/ls-rows";
import { formatTable } from "../src/output/table";
import { runCli } from "../src/program";

const NOW = new Date().toISOString();
const deployment = (over: Partial<DeploymentRecord> = {}): DeploymentRecord => ({
  id: "d0000000-1111-4222-8333-444444444444",
  name: "chat",
  task: "text-generation",
  model: "acme/tiny",
  revision: "abc123",
  profile: "default",
  engine: "docker",
  status: "ACTIVE",
  min: 0,
  max: 3,
  targetInflight: 4,
  scaleUpAfterSeconds: 30,
  scaleDownAfterSeconds: 300,
  routing: "prefix",
  healthy: 2,
  coming: 1,
  inFlight: 9,
  createdBy: "ada",
  createdAt: NOW,
  updatedAt: NOW,
  ...over,
});
const service = (id: string, name: string, status: ServiceRecord["status"], deploymentId: string | null = null) =>
  ({ id, name, status, image: "svc-text-generation", model: "acme/tiny", revision: "abc123", profile: "default", port: 8000, createdAt: NOW, updatedAt: NOW, deployment: deploymentId }) as unknown as ServiceRecord;

describe("svc run --replicas and its companions", () => {
  test("become RunRequest.scaling, before or after the model", () => {
    const parsed = parseRunArgs(["--replicas", "0..3", "text-generation", "acme/tiny", "--routing", "prefix", "--target-inflight", "8", "--scale-up-after=45s", "--scale-down-after", "10m", "-n", "chat"]);
    expect(parsed).toEqual({
      help: false,
      json: false,
      request: { task: "text-generation", model: "acme/tiny", name: "chat", scaling: { replicas: "0..3", routing: "prefix", targetInflight: 8, scaleUpAfter: "45s", scaleDownAfter: "10m" } },
    });
    expect(parseRunArgs(["text-generation", "acme/tiny", "--replicas", "2"])).toMatchObject({ request: { scaling: { replicas: "2" } } });
  });

  test("a wrong value is a usage error that says what to fix", () => {
    const run = (...extra: string[]) => () => parseRunArgs(["text-generation", "acme/tiny", ...extra]);
    expect(run("--replicas", "3..1")).toThrow('--replicas "3..1": replicas: MIN (3) is above MAX (1).');
    expect(run("--replicas", "0..0")).toThrow("MAX must be at least 1");
    expect(run("--replicas", "1..65")).toThrow("MAX may be at most 64");
    expect(run("--replicas", "few")).toThrow("replicas must be MIN..MAX (e.g. 0..3) or a count");
    expect(run("--replicas")).toThrow("--replicas needs a value");
    expect(run("--replicas", "1..2", "--routing", "prefx")).toThrow('--routing "prefx": use least-busy or prefix. Did you mean prefix?');
    expect(run("--replicas", "1..2", "--target-inflight", "0")).toThrow("--target-inflight \"0\": use a whole number of requests from 1 to 100000.");
    expect(run("--replicas", "1..2", "--scale-down-after", "soon")).toThrow('--scale-down-after "soon": give a duration such as 30s');
    expect(run("--routing", "prefix", "--target-inflight", "4")).toThrow("--routing, --target-inflight belong to a deployment: add --replicas MIN..MAX");
  });

  test("svc run --help lists them", () => {
    const help = runHelp("text-generation");
    for (const option of ["--replicas <value>", "--target-inflight <value>", "--scale-up-after <value>", "--scale-down-after <value>", "--routing <value>"]) expect(help).toContain(option);
  });
});

describe("svc scale's request", () => {
  test("bounds and options as sent; nothing to change, or a wrong one, is a usage error", () => {
    expect(scaleRequestFrom("1..4", { routing: "least-busy", targetInflight: 16 })).toEqual({ replicas: "1..4", routing: "least-busy", targetInflight: 16 });
    expect(scaleRequestFrom(undefined, { scaleDownAfter: "2m" })).toEqual({ scaleDownAfter: "2m" });
    expect(() => scaleRequestFrom(undefined, {})).toThrow("give the new bounds (e.g. svc scale REF 1..4)");
    expect(() => scaleRequestFrom("4..1", {})).toThrow("MIN (4) is above MAX (1)");
    expect(() => scaleRequestFrom("1..2", { routing: true })).toThrow("--routing needs a value");
  });
});

describe("rendering", () => {
  test("svc ls: a deployment row where its first replica stood, its replicas indented under it, other services as they were", () => {
    const d = deployment();
    const services = [
      service("a1111111-0000-4000-8000-000000000000", "solo", "HEALTHY"),
      service("b2222222-0000-4000-8000-000000000000", "chat-1", "HEALTHY", d.id),
      service("c3333333-0000-4000-8000-000000000000", "other", "PENDING"),
      service("e4444444-0000-4000-8000-000000000000", "chat-2", "PENDING", d.id),
      service("f5555555-0000-4000-8000-000000000000", "chat-3", "STOPPED", d.id),
    ];
    const rows = lsRows(services, [d]);
    const lines = formatTable(LS_HEADERS, rows.map((r) => r.cells)).split("\n");
    expect(lines.map((line) => line.trim().split(/\s{2,}/)[0])).toEqual(["SERVICE ID", "a1111111-0000", "d0000000-1111", "b2222222-0000", "e4444444-0000", "f5555555-0000", "c3333333-0000"]);
    expect(lines[2]).toMatch(/^d0000000-1111\s+deployment\s+acme\/tiny .*ACTIVE \(2 healthy, 1 coming, 0\.\.3\)\s+chat\s+default$/);
    for (const i of [3, 4, 5]) expect(lines[i].startsWith("  ")).toBe(true);
    expect(rows.map((r) => r.ended)).toEqual([false, false, false, false, true, false]);
  });

  test("svc details DEPLOYMENT: bounds, counts, routing, replicas and events", () => {
    const details: DeploymentDetails = {
      ...deployment(),
      replicas: [service("b2222222-0000-4000-8000-000000000000", "chat-1", "HEALTHY", "d0000000-1111-4222-8333-444444444444")],
      events: [{ at: "2026-11-27T10:00:00Z", from: 1, to: 3, message: "scaled up to 3: 9.5 in flight per replica for 30 s" }],
    };
    const text = formatDeploymentDetails(details);
    expect(text).toMatch(/^replicas\s+0\.\.3 \(now 2 healthy, 1 coming\)$/m);
    expect(text).toMatch(/^routing\s+prefix$/m);
    expect(text).toMatch(/^target\s+4 in flight per replica$/m);
    expect(text).toMatch(/^scale down after\s+5 min without a request$/m);
    expect(text).toMatch(/^in flight\s+9 requests$/m);
    expect(text).toMatch(/Replicas:\nSERVICE ID\s+NAME\s+STATUS.*\nb2222222-0000\s+chat-1\s+HEALTHY\s+8000/);
    expect(text).toMatch(/Events:\nTIME\s+FROM\s+TO\s+REASON\n2026-11-27T10:00:00Z\s+1\s+3\s+scaled up to 3: 9.5 in flight per replica for 30 s$/);
    expect(formatDeploymentDetails({ ...details, events: [] })).toEndWith("Events:\nnone yet");
  });
});

/** A stub of the API: what the CLI asked for, and answers for the deployment "chat" (no service has that name). */
function stubApi() {
  const asked: string[] = [];
  const details: DeploymentDetails = { ...deployment(), replicas: [], events: [] };
  const queues = queueReportOf(
    "acme/tiny",
    [
      { key: "eval-bot", tier: "default", weight: 1, waiting: 4, oldestSeconds: 12.34 },
      { key: "ada", tier: "default", weight: 2, waiting: 1, oldestSeconds: 0.2 },
    ],
    { capacity: 8, inFlight: 8, typicalWaitSeconds: 3.5, refused: { timeout: 2, full: 0 } },
  );
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const body = request.method === "PATCH" ? await request.text() : "";
      asked.push(`${request.method} ${url.pathname}${url.search}${body ? ` ${body}` : ""}`);
      const missing = (what: string) => Response.json({ error: "not_found", message: `No ${what} has the id or name ${url.pathname.split("/")[3]}.` }, { status: 404 });
      if (url.pathname === "/api/queues") return Response.json(queues);
      if (url.pathname.startsWith("/api/services/")) return missing("service");
      if (url.pathname === "/api/services") return Response.json([service("b2222222-0000-4000-8000-000000000000", "chat-1", "HEALTHY", details.id)]);
      if (url.pathname === "/api/deployments") return Response.json([details]);
      if ((url.pathname === "/api/deployments/chat" || url.pathname === `/api/deployments/${details.id}`) && request.method === "GET") return Response.json(details);
      if (url.pathname === "/api/deployments/chat" && request.method === "PATCH") return Response.json({ ...details, ...JSON.parse(body), min: 1, max: 4 });
      if (url.pathname === "/api/deployments/chat/stop") {
        Object.assign(details, { status: "STOPPED", healthy: 0, coming: 0 });
        return Response.json(details);
      }
      return missing("deployment");
    },
  });
  return { asked, server };
}

describe("svc scale, details, stop, ls against a stub of the API", () => {
  const { asked, server } = stubApi();
  afterAll(() => server.stop(true));
  const env = { SVC_HOME_DIR: tempHome(), SVC_HOST: "127.0.0.1", SVC_PORT: String(server.port), SVC_AUTH_TOKEN: "a-stub-token-of-32-characters-xx" };
  async function svc(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    asked.length = 0;
    const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) }, env);
    return { code, out: out.join("\n"), err: err.join("\n"), asked: [...asked] };
  }

  test("svc scale REF MIN..MAX sends the bounds as typed; a wrong one exits 2 and sends nothing", async () => {
    const scaled = await svc("scale", "chat", "1..4", "--routing", "least-busy", "--scale-up-after", "1m");
    expect(scaled).toMatchObject({ code: 0, asked: ['PATCH /api/deployments/chat {"replicas":"1..4","scaleUpAfter":"1m","routing":"least-busy"}'] });
    expect(scaled.out).toContain("Deployment chat (d0000000-1111) is ACTIVE: 2 healthy, 1 coming, 1..4");
    const wrong = await svc("scale", "chat", "5..2");
    expect(wrong).toMatchObject({ code: 2, asked: [] });
    expect(wrong.err).toContain("svc: --replicas \"5..2\": replicas: MIN (5) is above MAX (2).\nRun 'svc scale --help' for usage.");
  });

  test("a ref that names no service is a deployment's: details, stop; neither says so naming both", async () => {
    const details = await svc("details", "chat");
    expect(details.code).toBe(0);
    expect(details.asked).toEqual(["GET /api/services/chat", "GET /api/deployments/chat", "GET /api/queues?model=acme%2Ftiny"]);
    expect(details.out).toMatch(/^deployment\s+chat$/m);
    // Its model's fair-share queue, from the gateway: who waits, per key.
    expect(details.out).toContain("Queue (fair share, at most 60 s, 256 a key): 5 waiting for acme/tiny, 8 in flight of 8 at once; typical wait 3.5 s; refused: 2 after the time limit, 0 with the key's queue full.");
    expect(details.out).toMatch(/^KEY\s+TIER\s+WEIGHT\s+WAITING\s+OLDEST\neval-bot\s+default\s+1\s+4\s+12\.3 s\nada\s+default\s+2\s+1\s+0\.2 s$/m);
    const json = await svc("details", "chat", "--json");
    expect(json.asked).not.toContain("GET /api/queues?model=acme%2Ftiny");
    const stop = await svc("stop", "chat");
    expect(stop).toMatchObject({ code: 0, out: `Stopped deployment ${deployment().id}.`, asked: ["POST /api/services/chat/stop", "POST /api/deployments/chat/stop", `GET /api/deployments/${deployment().id}`] });
    const neither = await svc("details", "nothing");
    expect(neither.code).toBe(1);
    expect(neither.err).toContain("No service or deployment has the id or name nothing.");
  });

  test("svc ls asks for the deployments only because a replica is listed, and groups it", async () => {
    const ls = await svc("ls");
    expect(ls.err).toBe("");
    expect(ls.code).toBe(0);
    expect(ls.asked).toEqual(["GET /api/services?limit=100", "GET /api/deployments?all=true"]);
    expect(ls.out.split("\n").slice(1).map((line) => line.trim().split(/\s{2,}/)[0])).toEqual(["d0000000-1111", "b2222222-0000"]);
    const json = await svc("ls", "--json");
    expect(json.asked).toEqual(["GET /api/services?limit=100"]);
    expect(JSON.parse(json.out)[0].deployment).toBe(deployment().id);
  });
});
