import { Elysia, t } from "elysia";
import type { ProfileCreate, ProfileUpdate } from "@svc/contracts";
import { ApiError, type SvcClient } from "@svc/client";
import {
  profileAddPage,
  profileDetailPage,
  profileRemovePage,
  profilesErrorPage,
  profilesListPage,
  type FormError,
  type ProfileFormValues,
} from "@svc/ui";

const htmlHeaders = { "content-type": "text/html; charset=utf-8" };

const FormBody = t.Object(
  {
    name: t.Optional(t.String({ maxLength: 256 })),
    schema: t.Optional(t.String({ maxLength: 64 })),
    home_dir: t.Optional(t.String({ maxLength: 4096 })),
    cache_dir: t.Optional(t.String({ maxLength: 4096 })),
    host: t.Optional(t.String({ maxLength: 253 })),
    user: t.Optional(t.String({ maxLength: 64 })),
    home: t.Optional(t.String({ maxLength: 4096 })),
    cache: t.Optional(t.String({ maxLength: 4096 })),
    port: t.Optional(t.String({ maxLength: 16 })),
    identity_file: t.Optional(t.String({ maxLength: 4096 })),
    account: t.Optional(t.String({ maxLength: 128 })),
    partition: t.Optional(t.String({ maxLength: 128 })),
    qos: t.Optional(t.String({ maxLength: 128 })),
    gpu_memory: t.Optional(t.String({ maxLength: 256 })),
  },
  { additionalProperties: true },
);
const NameParams = t.Object({ name: t.String({ maxLength: 256 }) });

const LOCAL_KEYS = ["home_dir", "cache_dir", "gpu_memory"] as const;
const SLURM_KEYS = ["host", "user", "home", "cache", "identity_file", "account", "partition", "qos", "gpu_memory", "host_key_fingerprint"] as const;

/** Form values → API attributes of the chosen schema; blank fields are left out. */
function attributes(values: ProfileFormValues, schema: string): { attributes: Record<string, string | number>; error?: FormError } {
  const result: Record<string, string | number> = {};
  const keys = schema === "slurm" ? SLURM_KEYS : LOCAL_KEYS;
  for (const key of keys) {
    const value = values[key]?.trim();
    if (value) result[key] = value;
  }
  if (schema === "slurm" && values.port?.trim()) {
    const port = values.port.trim();
    if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
      return { attributes: result, error: { field: "port", message: `Port "${port}" is not a port: use a whole number from 1 to 65535, or leave it empty.` } };
    }
    result.port = Number(port);
  }
  return { attributes: result };
}

function formError(error: unknown): FormError {
  if (error instanceof ApiError) {
    const details = (error.details ?? {}) as { field?: unknown; name?: unknown; fingerprint?: unknown };
    const field = typeof details.field === "string" ? details.field : undefined;
    const newHostKey =
      error.code === "ssh_host_key_unknown" && typeof details.name === "string" && typeof details.fingerprint === "string"
        ? { name: details.name, fingerprint: details.fingerprint }
        : undefined;
    return { message: error.message, field, newHostKey };
  }
  throw error;
}

const noticeQuery = (notices: string[]) => notices.map((n) => `notice=${encodeURIComponent(n)}`).join("&");

/**
 * The profiles pages: list, details with the update form, add and remove. Plain forms (POST, then a
 * redirect) that work without JavaScript; htmx boosts them. Every change goes through the REST API
 * (the typed client), so the UI applies exactly the API's rules and shows its messages.
 */
export function profilePages(client: SvcClient, session: boolean) {
  /** htmx does not swap 4xx answers: a boosted form gets its error page as 200; a plain one gets the status. */
  const page = (request: Request, body: string, status: number) =>
    new Response(body, { status: request.headers.get("hx-request") ? 200 : status, headers: htmlHeaders });
  const seeOther = (location: string) => new Response(null, { status: 303, headers: { location } });

  /** A page for errors that leave nothing to show (broken profiles.cfg, missing profile, service down). */
  const failure = (request: Request, error: unknown) => {
    if (error instanceof ApiError) {
      const title = error.status === 404 ? "Profile not found" : error.code === "profiles_file_invalid" ? "profiles.cfg needs fixing" : "Profiles unavailable";
      return page(request, profilesErrorPage({ title, message: error.message, session }), error.status);
    }
    const message = "profile-svc is not answering (it may be restarting): reload in a few seconds. Logs: $SVC_HOME_DIR/logs/profile-svc.log";
    return page(request, profilesErrorPage({ title: "Profiles unavailable", message, session }), 503);
  };

  return new Elysia({ name: "gateway/pages/profiles" })
    .get(
      "/profiles",
      async ({ request, query }) => {
        try {
          const profiles = await client.profiles.list();
          const removed = typeof query.removed === "string" ? [`Removed profile ${query.removed}.`] : [];
          return page(request, profilesListPage({ profiles, session, notices: removed }), 200);
        } catch (error) {
          return failure(request, error);
        }
      },
      { detail: { hide: true } },
    )
    .get(
      "/profiles/new",
      ({ request, query }) =>
        page(request, profileAddPage({ values: { name: typeof query.name === "string" ? query.name : "", schema: query.schema === "slurm" ? "slurm" : "local" }, session }), 200),
      { detail: { hide: true } },
    )
    .post(
      "/profiles",
      async ({ request, body }) => {
        const values = body as ProfileFormValues;
        const schema = values.schema === "slurm" ? "slurm" : "local";
        const { attributes: attrs, error } = attributes(values, schema);
        if (error) return page(request, profileAddPage({ values, session, error }), 400);
        try {
          const change = await client.profiles.create({ name: values.name?.trim() ?? "", schema, ...attrs } as ProfileCreate);
          const query = noticeQuery([`Created profile ${change.profile.name}.`, ...change.notices]);
          return seeOther(`/profiles/${encodeURIComponent(change.profile.name)}?${query}`);
        } catch (caught) {
          const problem = formError(caught);
          return page(request, profileAddPage({ values, session, error: problem }), (caught as ApiError).status);
        }
      },
      { body: FormBody, detail: { hide: true } },
    )
    .get(
      "/profiles/:name",
      async ({ request, params }) => {
        try {
          const profile = await client.profiles.get(params.name);
          const notices = new URL(request.url).searchParams.getAll("notice");
          // The profile is shown even when its cluster cannot be read now.
          const gpus = await client.profiles.gpus(profile.name).catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
          return page(request, profileDetailPage({ profile, session, notices, gpus }), 200);
        } catch (error) {
          return failure(request, error);
        }
      },
      { params: NameParams, detail: { hide: true } },
    )
    .post(
      "/profiles/:name",
      async ({ request, params, body }) => {
        const values = body as ProfileFormValues;
        let profile;
        try {
          profile = await client.profiles.get(params.name);
        } catch (error) {
          return failure(request, error);
        }
        const { attributes: attrs, error } = attributes(values, profile.schema);
        if (error) return page(request, profileDetailPage({ profile, values, session, error }), 400);
        try {
          const change = await client.profiles.update(params.name, attrs as ProfileUpdate);
          const query = noticeQuery([`Saved profile ${change.profile.name}.`, ...change.notices]);
          return seeOther(`/profiles/${encodeURIComponent(change.profile.name)}?${query}`);
        } catch (caught) {
          const problem = formError(caught);
          return page(request, profileDetailPage({ profile, values, session, error: problem }), (caught as ApiError).status);
        }
      },
      { params: NameParams, body: FormBody, detail: { hide: true } },
    )
    .get(
      "/profiles/:name/remove",
      async ({ request, params }) => {
        try {
          return page(request, profileRemovePage({ profile: await client.profiles.get(params.name), session }), 200);
        } catch (error) {
          return failure(request, error);
        }
      },
      { params: NameParams, detail: { hide: true } },
    )
    .post(
      "/profiles/:name/remove",
      async ({ request, params }) => {
        let profile;
        try {
          profile = await client.profiles.get(params.name);
        } catch (error) {
          return failure(request, error);
        }
        try {
          await client.profiles.remove(params.name);
          return seeOther(`/profiles?removed=${encodeURIComponent(params.name)}`);
        } catch (caught) {
          const problem = formError(caught);
          return page(request, profileRemovePage({ profile, session, error: problem.message }), (caught as ApiError).status);
        }
      },
      { params: NameParams, detail: { hide: true } },
    );
}
