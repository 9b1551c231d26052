import { Elysia, t } from "elysia";
import { ErrorBody, RuntimeInstall, RuntimeInstallRequest, RuntimeList, RuntimeRemoval } from "@svc/contracts";
import { InstallParams, InstallsQuery, ProfileQuery, RemoveQuery } from "./model";
import type { RuntimesService } from "./service";

const errors = { 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 502: ErrorBody, 503: ErrorBody };
const tags = ["runtimes"];

/** /api/runtimes: the svc runtime bundle on slurm profiles' clusters (svc runtime install|ls|rm). */
export function runtimesController(runtimes: RuntimesService) {
  return new Elysia({ name: "orchestrator/runtimes", prefix: "/api/runtimes" })
    .get("/", ({ query }) => runtimes.list(query.profile), {
      query: ProfileQuery,
      response: { 200: RuntimeList, ...errors },
      detail: { summary: "The svc runtime versions installed on a slurm profile's cluster, and the one svc uses", tags },
    })
    .delete("/", ({ query }) => runtimes.remove(query.profile, query.version), {
      query: RemoveQuery,
      response: { 200: RuntimeRemoval, ...errors },
      detail: { summary: "Remove a version, or without one every version but the current one (versions live services run stay)", tags },
    })
    .post(
      "/installs",
      async ({ body, set }) => {
        const task = await runtimes.install(body.profile);
        set.status = task.state === "running" ? 202 : 200;
        return task;
      },
      {
        body: RuntimeInstallRequest,
        response: { 200: RuntimeInstall, 202: RuntimeInstall, ...errors },
        detail: { summary: "Install the svc runtime on a slurm profile's cluster (202 while it uploads; 200 when it was there)", tags },
      },
    )
    .get("/installs", ({ query }) => runtimes.installTasks(query), {
      query: InstallsQuery,
      response: { 200: t.Array(RuntimeInstall), ...errors },
      detail: { summary: "Runtime installs of this svc, newest first, with their progress", tags },
    })
    .get("/installs/:id", ({ params }) => runtimes.installTask(params.id), {
      params: InstallParams,
      response: { 200: RuntimeInstall, ...errors },
      detail: { summary: "One runtime install and its progress", tags },
    });
}
