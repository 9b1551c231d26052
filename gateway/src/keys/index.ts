import { Elysia, t } from "elysia";
import { ApiKey, CreatedKey, CreateKeyRequest, KeyParams, UpdateKeyRequest } from "@svc/contracts";
import { operation } from "@svc/platform";
import type { KeyRing } from "./service";

const tags = ["keys"];

/** /api/keys: API keys for people using /v1 (svc key create|ls|update|rm). */
export function keysController(keys: KeyRing) {
  // normalize: false refuses unknown fields (a typo in an optional one) instead of dropping them, as the services do.
  return new Elysia({ name: "gateway/keys", prefix: "/api/keys", normalize: false })
    .get("", () => keys.list(), {
      ...operation("listKeys", { summary: "List API keys (never the keys themselves)", tags, ok: { 200: t.Array(ApiKey) } }),
    })
    .post(
      "",
      ({ body, set }) => {
        set.status = 201;
        return keys.create(body);
      },
      {
        body: CreateKeyRequest,
        ...operation("createKey", {
          summary: "Create an API key for /v1; the answer shows the key this once",
          tags,
          ok: { 201: CreatedKey },
          errors: { 409: "A key of that name exists (`conflict`)." },
        }),
      },
    )
    .patch("/:ref", ({ params, body }) => keys.update(params.ref, body), {
      params: KeyParams,
      body: UpdateKeyRequest,
      ...operation("updateKey", {
        summary: "Change a key's models, expiry, limits, tier or weight; the key itself stays the same",
        description: "Only the fields given change; a limit given as null is removed. The new limits hold from the key's next /v1 request on.",
        tags,
        ok: { 200: ApiKey },
        errors: { 404: "No key has that id or name (`not_found`)." },
      }),
    })
    .delete("/:ref", ({ params }) => keys.remove(params.ref), {
      params: KeyParams,
      ...operation("deleteKey", { summary: "Remove an API key; it is refused from the next request on", tags, ok: { 200: ApiKey }, errors: { 404: "No key has that id or name (`not_found`)." } }),
    });
}
