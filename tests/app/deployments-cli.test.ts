/**
 * The CLI's deployment commands against the running app (issue 31): svc run --replicas, svc ls
 * grouping the replicas, svc details / scale / stop / rm of a deployment: MIN 0 first (no replica
 * starts), then MIN 1 (one container, which svc stop drains and stops before it returns);
 * tests/app/deployments.test.ts grows and shrinks real ones under load.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { runSvc, startAppWithTinyModels, TEXT_MODEL, waitForReplicas, type TinyApp } from "@svc/testing";

let tiny: TinyApp;
beforeAll(async () => {
  tiny = await startAppWithTinyModels();
}, 600_000);
afterAll(async () => {
  for (const d of await tiny?.client.deployments.list({ all: true }).catch(() => []) ?? []) await tiny.client.deployments.remove(d.id, { force: true }).catch(() => {});
  await tiny?.cleanup();
});
const svc = (...args: string[]) => runSvc(args, tiny.env);

test("svc run --replicas makes a deployment; ls groups its replica; details, scale, stop and rm take its name", async () => {
  const wrong = await svc("run", "--replicas", "2..1", "text-generation", TEXT_MODEL);
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toContain('--replicas "2..1": replicas: MIN (2) is above MAX (1).');

  const run = await svc("run", "--replicas", "0..2", "--routing", "prefix", "--scale-down-after", "2m", "text-generation", TEXT_MODEL, "--name", "cli-chat");
  expect(run.code).toBe(0);
  expect(run.stderr).toMatch(/Requested deployment cli-chat of svc-tiny\/tiny-llama-gguf@\w+: 0\.\.2 replicas \(none runs until the first request\), prefix routing, target \d+ in flight per replica; 'svc details cli-chat' shows its replicas and events\./);
  const id = run.stdout.trim();
  expect(id).toMatch(/^[0-9a-f-]{36}$/);

  const ls = await svc("ls");
  expect(ls.code).toBe(0);
  const lines = ls.stdout.split("\n");
  const head = lines.findIndex((line) => line.startsWith(id.slice(0, 13)));
  expect(lines[head]).toMatch(/\s+deployment\s+svc-tiny\/tiny-llama-gguf\s.*ACTIVE \(0 healthy, 0\.\.2\)\s+cli-chat\s+default$/);
  expect(lines[head + 1]).toMatch(/^ {2}[0-9a-f]{8}-[0-9a-f]{4}\s.*STOPPED\s+None\s+cli-chat-1\s+default$/);

  const details = await svc("details", "cli-chat");
  expect(details.code).toBe(0);
  expect(details.stdout).toMatch(/^replicas\s+0\.\.2 \(now 0 healthy, 0 coming\)$/m);
  expect(details.stdout).toMatch(/^routing\s+prefix$/m);
  expect(details.stdout).toMatch(/^scale down after\s+2 min without a request$/m);
  expect(details.stdout).toMatch(/cli-chat-1\s+STOPPED/);
  expect(details.stdout).toContain("created with 0..2 replicas: none runs until the first request");
  expect(JSON.parse((await svc("details", "cli-chat", "--json")).stdout)).toMatchObject({ id, min: 0, max: 2, routing: "prefix" });

  const scaled = await svc("scale", "cli-chat", "0..3", "--target-inflight", "5", "--routing", "least-busy");
  expect(scaled.code).toBe(0);
  expect(scaled.stdout).toBe(`Deployment cli-chat (${id.slice(0, 13)}) is ACTIVE: 0 healthy, 0..3, target 5 in flight per replica, least-busy routing.\n`);
  expect((await svc("details", "cli-chat")).stdout).toContain("scaled by its creator: replicas 0..3, target 5 in flight per replica, routing least-busy");
  const nothing = await svc("scale", "cli-chat");
  expect(nothing.code).toBe(2);
  expect(nothing.stderr).toContain("give the new bounds (e.g. svc scale REF 1..4)");

  // MIN 1: a replica starts; rm refuses the live deployment; stop returns once the replica has drained and stopped.
  expect((await svc("scale", "cli-chat", "1..3")).code).toBe(0);
  await waitForReplicas(tiny.client, id, { healthy: 1 }, 120_000);
  expect((await svc("ls")).stdout).toMatch(/\n {2}[0-9a-f]{8}-[0-9a-f]{4}\s.*HEALTHY\s+\d+\s+cli-chat-1\s+default\n/);
  const live = await svc("rm", "cli-chat", "--yes");
  expect(live.code).toBe(1);
  expect(live.stderr).toContain("deployment cli-chat is ACTIVE with 1 replica up or on the way: stop it first ('svc stop cli-chat')");
  const stop = await svc("stop", "cli-chat");
  expect(stop).toMatchObject({ code: 0, stdout: `Stopped deployment ${id}.\n` });
  expect((await tiny.client.deployments.get(id)).replicas.map((replica) => replica.status)).toEqual(["STOPPED"]);
  // Its replica is not started by hand: the deployment starts its replicas.
  const byHand = await svc("restart", "cli-chat-1");
  expect(byHand.code).toBe(1);
  expect(byHand.stderr).toContain(`Service cli-chat-1 is a replica of deployment ${id}, which starts and stops its replicas: change how many run with 'svc scale ${id.slice(0, 13)} MIN..MAX'`);
  expect((await tiny.client.deployments.get(id)).replicas.map((replica) => replica.status)).toEqual(["STOPPED"]);
  const rm = await svc("rm", "cli-chat", "--yes");
  expect(rm).toMatchObject({ code: 0, stdout: `Removed deployment ${id}.\n` });
  const gone = await svc("details", "cli-chat");
  expect(gone.code).toBe(1);
  expect(gone.stderr).toContain("No service or deployment has the id or name cli-chat.");
}, 120_000);
