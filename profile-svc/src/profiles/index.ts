import { Elysia, t } from "elysia";
import { Profile, ProfileChange, ProfileCreate, ProfileUpdate } from "@svc/contracts";
import { NO_CONTENT, operation } from "@svc/platform";
import { ProfileParams } from "./model";
import type { ProfileService } from "./service";

const tags = ["profiles"];
const FILE_INVALID = "profiles.cfg does not parse (`profiles_file_invalid`, naming the line) or another writer holds it too long (`profiles_file_busy`).";
const NO_SUCH = "No profile of that name (`not_found`), or none at all before `svc init` (`no_profiles`).";
const CHECK_FAILED =
  "A check failed and nothing was written: `local_dir_failed`, or for slurm `ssh_unreachable`, `ssh_auth_failed`, `ssh_host_key_changed`, `ssh_failed`, `remote_check_failed`.";

/** /api/profiles: list, create, show, update and remove profiles (profiles.cfg). */
export function profilesController(service: ProfileService) {
  return new Elysia({ name: "profile-svc/profiles", prefix: "/api/profiles" })
    .get("", () => service.list(), {
      ...operation("listProfiles", {
        summary: "List profiles",
        description: "An empty list means no profile exists yet: run `svc init`.",
        tags,
        ok: { 200: t.Array(Profile) },
        errors: { 409: FILE_INVALID },
      }),
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
        ...operation("createProfile", {
          summary: "Create a profile",
          tags,
          description:
            "Checks before writing: local — home_dir is created when missing and must be writable, cache_dir must exist and be readable. " +
            "slurm — connects over SSH (key authentication, known_hosts verified), creates home, checks cache and that sbatch and squeue are on the PATH. " +
            "A host not in known_hosts yet is refused (422 ssh_host_key_unknown, its key's fingerprint in details) until host_key_fingerprint confirms that fingerprint, which is then recorded. " +
            "Any failing check answers 422 and creates nothing. The first profile must be named `default`.",
          ok: { 201: ProfileChange },
          errors: {
            409: `The name is taken (\`conflict\`), the first profile is not \`default\` (\`default_profile_required\`), or ${FILE_INVALID}`,
            422: CHECK_FAILED,
          },
        }),
      },
    )
    .get("/:name", ({ params }) => service.get(params.name), {
      params: ProfileParams,
      ...operation("getProfile", { summary: "Show a profile", tags, ok: { 200: Profile }, errors: { 404: NO_SUCH, 409: FILE_INVALID } }),
    })
    .put("/:name", ({ params, body }) => service.update(params.name, body), {
      params: ProfileParams,
      body: ProfileUpdate,
      ...operation("updateProfile", {
        summary: "Change a profile's attributes",
        tags,
        description: "Omitted attributes keep their value; name and schema cannot change. The same checks as on create run again.",
        ok: { 200: ProfileChange },
        errors: { 404: NO_SUCH, 409: `The profile changed schema meanwhile (\`conflict\`), or ${FILE_INVALID}`, 422: CHECK_FAILED },
      }),
    })
    .delete(
      "/:name",
      async ({ params, set }) => {
        await service.remove(params.name);
        set.status = 204;
      },
      {
        params: ProfileParams,
        ...operation("deleteProfile", {
          summary: "Remove a profile",
          tags,
          description: "The default profile cannot be removed.",
          ok: { 204: NO_CONTENT },
          errors: { 404: NO_SUCH, 409: `The profile is \`default\` (\`default_profile_required\`), or ${FILE_INVALID}` },
        }),
      },
    );
}
