import { Elysia, t } from "elysia";
import { FoundEngineVersion, RuntimeInstall, RuntimeInstallRequest, RuntimeList, RuntimeRemoval } from "@svc/contracts";
import { operation } from "@svc/platform";
import { InstallParams, InstallsQuery, ProfileQuery, RemoveQuery } from "./model";
import type { RuntimesService } from "./service";

const tags = ["runtimes"];
/** What reaching a profile's cluster can answer. */
const CLUSTER = {
  400: "The profile is a local profile (`not_a_slurm_profile`): its services need no svc runtime.",
  404: "No profile has that name (`not_found`).",
  502: "The cluster answered with an error.",
  503: "The cluster, or another part of svc, is not answering.",
} as const;

/** /api/runtimes: the svc runtime bundle on slurm profiles' clusters (svc runtime install|ls|rm). */
export function runtimesController(runtimes: RuntimesService, engineVersions: (profile?: string) => Promise<FoundEngineVersion[]>) {
  return new Elysia({ name: "orchestrator/runtimes", prefix: "/api/runtimes" })
    .get("/engines", ({ query }) => engineVersions(query.profile), {
      query: ProfileQuery,
      ...operation("listEngineVersions", {
        summary: "The vLLM and SGLang versions found where a profile runs them (its images, or a bare job's python3), read when missing or older than an hour",
        tags,
        ok: { 200: t.Array(FoundEngineVersion) },
        errors: { 404: "No profile has that name (`not_found`).", 503: "Another part of svc is not answering." },
      }),
    })
    .get("", ({ query }) => runtimes.list(query.profile), {
      query: ProfileQuery,
      ...operation("listRuntimes", {
        summary: "The svc runtime versions installed on a slurm profile's cluster, and the one svc uses",
        tags,
        ok: { 200: RuntimeList },
        errors: CLUSTER,
      }),
    })
    .delete("", ({ query }) => runtimes.remove(query.profile, query.version), {
      query: RemoveQuery,
      ...operation("removeRuntimes", {
        summary: "Remove a version, or without one every version but the current one (versions live services run stay)",
        tags,
        ok: { 200: RuntimeRemoval },
        errors: {
          ...CLUSTER,
          404: "No profile has that name, or that version is not installed (`not_found`).",
          409: "Live services run that version (`runtime_in_use`).",
        },
      }),
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
        ...operation("installRuntime", {
          summary: "Install the svc runtime on a slurm profile's cluster",
          description: "202 while it uploads (poll the install); 200 when the version was already there.",
          tags,
          ok: { 200: RuntimeInstall, 202: RuntimeInstall },
          errors: CLUSTER,
        }),
      },
    )
    .get("/installs", ({ query }) => runtimes.installTasks(query), {
      query: InstallsQuery,
      ...operation("listRuntimeInstalls", { summary: "Runtime installs of this svc, newest first, with their progress", tags, ok: { 200: t.Array(RuntimeInstall) } }),
    })
    .get("/installs/:id", ({ params }) => runtimes.installTask(params.id), {
      params: InstallParams,
      ...operation("getRuntimeInstall", {
        summary: "One runtime install and its progress",
        tags,
        ok: { 200: RuntimeInstall },
        errors: { 404: "No runtime install has that id (`not_found`)." },
      }),
    });
}
