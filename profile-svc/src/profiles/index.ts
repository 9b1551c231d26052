import { Elysia, t } from "elysia";
import { ErrorBody, Profile, ProfileChange, ProfileCreate, ProfileUpdate } from "@svc/contracts";
import { ProfileParams } from "./model";
import type { ProfileService } from "./service";

const errors = { 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody };

/** /api/profiles: list, create, show, update and remove profiles (profiles.cfg). */
export function profilesController(service: ProfileService) {
  return new Elysia({ name: "profile-svc/profiles", prefix: "/api/profiles" })
    .get("", () => service.list(), {
      response: { 200: t.Array(Profile), 409: ErrorBody },
      detail: { summary: "List profiles", tags: ["profiles"], description: "An empty list means no profile exists yet: run `svc init`." },
    })
    .post(
      "",
      async ({ body, set }) => {
        const change = await service.create(body);
        set.status = 201;
        return change;
      },
      {
        body: ProfileCreate,
        response: { 201: ProfileChange, ...errors },
        detail: {
          summary: "Create a profile",
          tags: ["profiles"],
          description:
            "Checks before writing: local — home_dir is created when missing and must be writable, cache_dir must exist and be readable. " +
            "slurm — connects over SSH (key authentication, known_hosts verified), creates home, checks cache and that sbatch and squeue are on the PATH. " +
            "A host not in known_hosts yet is refused (422 ssh_host_key_unknown, its key's fingerprint in details) until host_key_fingerprint confirms that fingerprint, which is then recorded. " +
            "Any failing check answers 422 and creates nothing. The first profile must be named `default`.",
        },
      },
    )
    .get("/:name", ({ params }) => service.get(params.name), {
      params: ProfileParams,
      response: { 200: Profile, 404: ErrorBody, 409: ErrorBody },
      detail: { summary: "Show a profile", tags: ["profiles"] },
    })
    .put("/:name", ({ params, body }) => service.update(params.name, body), {
      params: ProfileParams,
      body: ProfileUpdate,
      response: { 200: ProfileChange, ...errors },
      detail: {
        summary: "Change a profile's attributes",
        tags: ["profiles"],
        description: "Omitted attributes keep their value; name and schema cannot change. The same checks as on create run again.",
      },
    })
    .delete(
      "/:name",
      async ({ params, set }) => {
        await service.remove(params.name);
        set.status = 204;
      },
      {
        params: ProfileParams,
        response: { 204: t.Void(), 404: ErrorBody, 409: ErrorBody },
        detail: { summary: "Remove a profile", tags: ["profiles"], description: "The default profile cannot be removed." },
      },
    );
}
