/**
 * Deployments in the web UI (issue 31), without a browser: the services table groups replicas under
 * their deployment, the deployment page (events newest first, the scale form, stop and remove), the
 * scale form's checks, and the launch form's replica fields checked before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { SvcClient } from "@svc/client";
import type { DeploymentDetails, DeploymentRecord, ServiceRecord } from "@svc/contracts";
import { deploymentActionPage, deploymentDetailsPage, servicesTable } from "@svc/ui";
import { commitOf, files, formPost, localProfileHome, startSvc, tempHome, type RunningSvc } from "@svc/testing";
import { scaleRequest } from "../src/pages/deployments";

const MODEL = "acme/tiny-gguf";
const DEPLOYMENT_ID = "dddddddd-0000-4000-8000-000000000000";
const service = (id: string, name: string, status: ServiceRecord["status"], deployment: string | null = null): ServiceRecord => ({
    id, name, image: "text_generation", task: "text-generation", model: MODEL, revision: "r", profile: "default", status, reason: null,
    host: null, port: null, url: null, engine: "docker", runtime: "img", handle: null, apiKeySet: false, job: {}, engineArgs: [], createdBy: "me",
    policies: { idleStop: null, idleStopSeconds: null, onDemand: true, startTimeout: "15 min", startTimeoutSeconds: 900, renew: false, renewBefore: null, renewBeforeSeconds: null },
    lastRequestAt: null, endsAt: null, successor: null, deployment,
    createdAt: "2026-11-22T00:00:00.000Z", updatedAt: "2026-11-22T00:00:00.000Z",
}); // prettier-ignore
const deployment = (over: Partial<DeploymentRecord> = {}): DeploymentRecord => ({
  id: DEPLOYMENT_ID, name: "<chat>", task: "text-generation", model: MODEL, revision: "r0123456789abcdef", profile: "default", engine: "docker", status: "ACTIVE",
  min: 0, max: 3, targetInflight: 4, scaleUpAfterSeconds: 30, scaleDownAfterSeconds: 300, routing: "prefix", healthy: 2, coming: 1, inFlight: 9,
  createdBy: "me", createdAt: "2026-11-22T00:00:00.000Z", updatedAt: "2026-11-22T00:00:00.000Z", ...over,
}); // prettier-ignore

describe("rendering", () => {
  test("the services table: a deployment's row where its first replica stands, its replicas under it, other services as before", () => {
    const services = [
      service("11111111-0000-4000-8000-000000000001", "solo", "HEALTHY"),
      service("22222222-0000-4000-8000-000000000002", "chat-1", "HEALTHY", DEPLOYMENT_ID),
      service("33333333-0000-4000-8000-000000000003", "other", "PENDING"),
      service("44444444-0000-4000-8000-000000000004", "chat-2", "STOPPED", DEPLOYMENT_ID),
    ];
    const table = servicesTable(services, {}, { total: 4, version: "v", deployments: [deployment()] }).value;
    const order = [...table.matchAll(/data-(service|deployment)-id="(\w+)/g)].map((m) => m[2]);
    expect(order).toEqual(["11111111", "dddddddd", "22222222", "44444444", "33333333"]);
    expect(table).toContain(`<tr class="deployment" data-deployment-id="${DEPLOYMENT_ID}">`);
    expect(table).toContain(`<a href="/deployments/${DEPLOYMENT_ID}">&lt;chat&gt;</a>`);
    expect(table).toContain('<span class="badge ACTIVE">ACTIVE</span><span class="counts">2 healthy, 1 coming of 0..3</span>');
    expect(table).toContain('<tr data-service-id="22222222-0000-4000-8000-000000000002" class="replica">');
    expect(table).toContain('<tr data-service-id="44444444-0000-4000-8000-000000000004" class="replica ended">');
    expect(table).toContain('<tr data-service-id="11111111-0000-4000-8000-000000000001" >');
  });

  test("the deployment page: bounds, counts, replicas, events newest first, the scale form with its values, stop only while ACTIVE", () => {
    const details: DeploymentDetails = {
      ...deployment(),
      replicas: [service("22222222-0000-4000-8000-000000000002", "chat-1", "HEALTHY", DEPLOYMENT_ID)],
      events: [
        { at: "2026-11-22T00:01:00.000Z", from: 0, to: 1, message: "scaled up to 1: a request came" },
        { at: "2026-11-22T00:02:00.000Z", from: 1, to: 3, message: "scaled up to 3: 9.5 in flight per replica for 30 s" },
      ],
    };
    const page = deploymentDetailsPage({ deployment: details, version: "v1", session: false });
    expect(page).toContain("<h1>&lt;chat&gt;</h1>");
    expect(page).toContain('<dd id="replica-counts">2 healthy, 1 coming of 0..3</dd>');
    expect(page).toContain('<dd id="routing">prefix</dd>');
    expect(page).toContain(`hx-get="/deployments/${DEPLOYMENT_ID}/status?v=v1"`);
    expect(page.indexOf("scaled up to 3")).toBeLessThan(page.indexOf("scaled up to 1"));
    expect(page).toContain(`<form method="post" action="/deployments/${DEPLOYMENT_ID}/scale">`);
    expect(page).toMatch(/id="f-replicas" name="replicas" value="0\.\.3"/);
    expect(page).toMatch(/<option value="prefix" selected>/);
    expect(page).toContain('id="action-stop"');
    const stopped = deploymentDetailsPage({ deployment: { ...details, status: "STOPPED", events: [] }, version: "v", session: false, scale: { replicas: "9..1" }, scaleError: "replicas: MIN (9) is above MAX (1)." });
    expect(stopped).not.toContain('id="action-stop"');
    expect(stopped).toContain("No scaling decision yet.");
    expect(stopped).toContain('<p class="error" role="alert" id="scale-error">replicas: MIN (9) is above MAX (1).</p>');
    expect(stopped).toMatch(/id="f-replicas" name="replicas" value="9\.\.1"/);
    expect(deploymentActionPage({ deployment: deployment(), action: "remove", session: false })).toContain(`<form method="post" action="/deployments/${DEPLOYMENT_ID}/remove">`);
  });

  test("the scale form's text becomes a ScaleRequest, or says what to fix", () => {
    expect(scaleRequest({ replicas: " 1..4 ", targetInflight: "8", scaleUpAfter: "1m", scaleDownAfter: "", routing: "least-busy" })).toEqual({
      request: { replicas: "1..4", targetInflight: 8, scaleUpAfter: "1m", routing: "least-busy" },
    });
    const current = deployment({ min: 1, max: 4, targetInflight: 8, scaleUpAfterSeconds: 60, routing: "least-busy" });
    expect(scaleRequest({ replicas: "1..4", targetInflight: "8", scaleUpAfter: "1m", scaleDownAfter: "300s", routing: "prefix" }, current)).toEqual({ request: { routing: "prefix" } });
    expect(scaleRequest({ replicas: "1..4", routing: "least-busy" }, current)).toEqual({ error: "Nothing to change: edit the replicas or another field first." });
    expect(scaleRequest({ replicas: "1..4" }, { ...current, status: "STOPPED" })).toEqual({ request: {} });
    expect(scaleRequest({ replicas: "4..1" })).toEqual({ error: "replicas: MIN (4) is above MAX (1)." });
    expect(scaleRequest({ targetInflight: "many" })).toEqual({ error: 'Target in flight "many": write a whole number of requests, 1 or more.' });
    expect(scaleRequest({ routing: "random" })).toEqual({ error: 'Routing "random": choose least-busy or prefix.' });
  });
});

describe("the launch form's replica fields, through the app", () => {
  let app: RunningSvc;
  let base: string;
  beforeAll(async () => {
    base = tempHome("svc-deployment-pages-");
    app = await startSvc({ home: localProfileHome(base, [{ repo: MODEL, commit: commitOf("g"), files: files.gguf() }]) });
    await new SvcClient({ baseUrl: app.url }).models.refresh();
  });
  afterAll(async () => {
    await app?.cleanup();
    rmSync(base, { recursive: true, force: true });
  });
  const launch = (fields: Record<string, string>) => fetch(`${app.url}/services/new`, formPost(app.url, { task: "text-generation", model: MODEL, profile: "default", action: "launch", ...fields }));

  test("the form offers replicas and routing; a wrong range is refused next to its field, nothing started", async () => {
    const form = await (await fetch(`${app.url}/services/new`)).text();
    expect(form).toContain('name="replicas"');
    expect(form).toContain('<option value="prefix" >prefix (same long prompt prefix, same replica)</option>');
    const wrong = await launch({ replicas: "3..1" });
    expect(wrong.status).toBe(400);
    const page = await wrong.text();
    expect(page).toContain('<p class="field-error" id="err-replicas">replicas: MIN (3) is above MAX (1).</p>');
    expect(page).toMatch(/<details open>\s*<summary>Replicas/);
    const target = await launch({ replicas: "1..2", targetInflight: "lots" });
    expect(target.status).toBe(400);
    expect(await target.text()).toContain('id="err-targetInflight">Target in flight per replica &quot;lots&quot; is not a whole number');
    expect(await new SvcClient({ baseUrl: app.url }).services.list({ all: true })).toEqual([]);
  });
});

describe("a deployment through the pages, against the real API (MIN 0: no replica starts)", () => {
  let app: RunningSvc;
  let base: string;
  let client: SvcClient;
  beforeAll(async () => {
    base = tempHome("svc-deployment-flow-");
    app = await startSvc({ home: localProfileHome(base, [{ repo: MODEL, commit: commitOf("g"), files: files.gguf() }]) });
    client = new SvcClient({ baseUrl: app.url });
    await client.models.refresh();
  });
  afterAll(async () => {
    for (const d of await client.deployments.list({ all: true }).catch(() => [])) await client.deployments.remove(d.id, { force: true }).catch(() => {});
    await app?.cleanup();
    rmSync(base, { recursive: true, force: true });
  });
  const post = (path: string, fields: Record<string, string> = {}) => fetch(`${app.url}${path}`, formPost(app.url, fields));

  test("launch with replicas → the deployment's page; grouped on the services page; scale, stop, remove", async () => {
    const launched = await post("/services/new", { task: "text-generation", model: MODEL, profile: "default", action: "launch", name: "webchat", replicas: "0..2", routing: "prefix", scaleDownAfter: "2m" });
    expect(launched.status).toBe(303);
    const location = launched.headers.get("location")!;
    expect(location).toMatch(/^\/deployments\/[0-9a-f-]{36}\?launched=1$/);
    const id = location.slice("/deployments/".length, location.indexOf("?"));
    expect(await client.deployments.get(id)).toMatchObject({ name: "webchat", min: 0, max: 2, routing: "prefix", scaleDownAfterSeconds: 120, status: "ACTIVE" });

    const page = await (await fetch(`${app.url}${location}`)).text();
    expect(page).toContain("Launched deployment webchat: 0..2 replicas.");
    expect(page).toContain('<dd id="replica-counts">0 healthy of 0..2</dd>');
    expect(page).toContain("created with 0..2 replicas: none runs until the first request");

    const services = await (await fetch(`${app.url}/services`)).text();
    expect(services).toContain(`<tr class="deployment" data-deployment-id="${id}">`);
    expect(services).toMatch(/<tr data-service-id="[0-9a-f-]{36}" class="replica ended">[\s\S]*?<td>webchat-1<\/td>/);
    const version = services.match(/hx-get="\/services\/table\?v=([a-z0-9]+)"/)![1];
    expect((await fetch(`${app.url}/services/table?v=${version}`)).status).toBe(204);

    const refused = await post(`/deployments/${id}/scale`, { replicas: "5..2" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('id="scale-error">replicas: MIN (5) is above MAX (2).</p>');
    const scaled = await post(`/deployments/${id}/scale`, { replicas: "0..3", targetInflight: "6", scaleUpAfter: "30s", scaleDownAfter: "120s", routing: "prefix" });
    expect(scaled.status).toBe(303);
    expect(scaled.headers.get("location")).toBe(`/deployments/${id}?done=scale`);
    const after = await client.deployments.get(id);
    expect(after).toMatchObject({ min: 0, max: 3, targetInflight: 6, routing: "prefix" });
    expect(after.events.at(-1)!.message).toBe("scaled by its creator: replicas 0..3, target 6 in flight per replica");
    const panel = await (await fetch(`${app.url}/deployments/${id}/status?v=stale`)).text();
    expect(panel.indexOf("scaled by its creator")).toBeLessThan(panel.indexOf("created with 0..2 replicas"));

    expect(await (await fetch(`${app.url}/deployments/${id}/stop`)).text()).toContain("Drains every replica");
    const stopped = await post(`/deployments/${id}/stop`);
    expect(stopped.status).toBe(303);
    expect((await client.deployments.get(id)).status).toBe("STOPPED");
    expect(await (await fetch(`${app.url}/deployments/${id}`)).text()).not.toContain('id="action-stop"');

    const removed = await post(`/deployments/${id}/remove`);
    expect(removed.status).toBe(303);
    expect(removed.headers.get("location")).toBe("/services?status=all&kind=deployment&removed=webchat");
    expect(await (await fetch(`${app.url}${removed.headers.get("location")}`)).text()).toContain("Removed the record of deployment webchat.");
    const gone = await fetch(`${app.url}/deployments/${id}`);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain("Deployment not found");
  });
});
