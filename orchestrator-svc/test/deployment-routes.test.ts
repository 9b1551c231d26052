/**
 * What the gateway's /v1 learns about replicas from the routes list (SERVICE_ROUTES_PATH): each
 * replica's deployment, its routing and whether it drains; a stopped replica of a stopped
 * deployment is not offered for an on-demand start.
 */
import { expect, test } from "bun:test";
import { SERVICE_ROUTES_PATH, type ServiceRoute } from "@svc/contracts";
import { serviceRoutesController } from "../src/services/routes";
import { deploymentHarness } from "./deployment-harness";

test("replicas carry their deployment, its routing and their drain; a stopped deployment's replicas are draining and none is started on demand", async () => {
  const h = deploymentHarness();
  const routes = serviceRoutesController(h.store, h.deploymentStore);
  const list = async () => (await (await routes.handle(new Request(`http://orchestrator${SERVICE_ROUTES_PATH}`))).json()) as ServiceRoute[];
  const { deployment } = await h.run({ replicas: "1..2", routing: "prefix", scaleDownAfter: "1s" });
  const { deployment: lazy } = await h.run({ replicas: "0..2" }, "lazy");
  h.settle(deployment!.id);
  await h.tick();
  h.deployments.scale("tiny", { replicas: "0..2" });
  expect((await list()).map((route) => [route.name, route.status, route.onDemand, route.deployment])).toEqual([
    ["tiny-1", "HEALTHY", true, { id: deployment!.id, name: "tiny", routing: "prefix", draining: false }],
    ["lazy-1", "STOPPED", true, { id: lazy!.id, name: "lazy", routing: "least-busy", draining: false }],
  ]);
  await h.tick(2000);
  expect((await list()).find((route) => route.name === "tiny-1")!.deployment!.draining).toBe(true);

  await h.deployments.stop("lazy");
  expect((await list()).map((route) => route.name)).toEqual(["tiny-1"]);
});

test("each route says how many requests its service takes at once: a replica its deployment's target, a service its --parallel (1 without)", async () => {
  const h = deploymentHarness();
  const routes = serviceRoutesController(h.store, h.deploymentStore);
  const list = async () => (await (await routes.handle(new Request(`http://orchestrator${SERVICE_ROUTES_PATH}`))).json()) as ServiceRoute[];
  await h.run({ replicas: "1..2", targetInflight: 6 });
  await h.services.run({ task: "text-generation", model: "acme/tiny", name: "solo", engineArgs: ["--parallel", "3"] });
  await h.services.run({ task: "text-generation", model: "acme/tiny", name: "plain" });
  const capacity = Object.fromEntries((await list()).map((route) => [route.name, route.capacity]));
  expect(capacity).toEqual({ "tiny-1": 6, solo: 3, plain: 1 });
});
