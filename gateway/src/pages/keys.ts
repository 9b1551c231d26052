import { Elysia, t } from "elysia";
import { ApiError, type SvcClient } from "@svc/client";
import { keysPage as renderKeys, KEYS_PATH, usagePage, USAGE_PATH, type KeyFormValues } from "@svc/ui";
import { createRequestFrom, updateRequestFrom } from "./key-form";
import { USAGE_GROUPINGS, USAGE_HOURLY_WINDOWS, type UsageGrouping, type UsageHourlyWindow } from "@svc/contracts";
import type { KeyRing } from "../keys/service";
import type { EndpointRegistry } from "../endpoints/service";
import { DEFAULT_SINCE, usageReport } from "../usage/service";
import type { UsageStore } from "../usage/store";

const htmlHeaders = { "content-type": "text/html; charset=utf-8" };
const short = t.Optional(t.String({ maxLength: 64 }));
const KeyForm = t.Object(
  {
    name: t.Optional(t.String({ maxLength: 256 })),
    models: t.Optional(t.String({ maxLength: 8192 })),
    expires: short,
    requestsPerMinute: short,
    tokensPerMinute: short,
    maxParallel: short,
    dailyTokens: short,
    monthlyTokens: short,
    tier: short,
    weight: short,
  },
  { additionalProperties: true },
);
const IdParams = t.Object({ id: t.String({ maxLength: 128 }) });

/**
 * The Keys and Usage pages. The keys and the usage are the gateway's own, so these call them
 * directly, with the same checks as /api/keys (KeyRing) and /api/usage (usageReport).
 */
export function keyAndUsagePages(keys: KeyRing, usage: UsageStore, client: SvcClient, session: boolean, endpoints?: EndpointRegistry) {
  const page = (body: string, status = 200) => new Response(body, { status, headers: htmlHeaders });
  const keysPage = (options: Omit<Parameters<typeof renderKeys>[0], "endpoints">) => renderKeys({ ...options, endpoints: endpoints?.list() });
  /** The page that shows a new key: kept by no cache, as the key is shown this once. */
  const secretPage = (body: string, status: number) => new Response(body, { status, headers: { ...htmlHeaders, "cache-control": "no-store" } });
  return new Elysia({ name: "gateway/pages/keys" })
    .get(KEYS_PATH, ({ query }) => {
      const list = keys.list();
      const notice = typeof query.removed === "string" ? `Removed the key ${query.removed}.` : typeof query.updated === "string" ? `Changed the key ${query.updated}.` : undefined;
      if (typeof query.edit !== "string") return page(keysPage({ keys: list, session, notice }));
      const key = list.find((candidate) => candidate.id === query.edit);
      return key ? page(keysPage({ keys: list, session, edit: { key } })) : page(keysPage({ keys: list, session, error: "That key does not exist (any more)." }), 404);
    }, { detail: { hide: true } })
    .post(
      KEYS_PATH,
      ({ body }) => {
        const values = body as KeyFormValues;
        const read = createRequestFrom(values);
        if ("problem" in read) return page(keysPage({ keys: keys.list(), session, values, error: read.problem }), 400);
        try {
          const created = keys.create(read.request);
          return secretPage(keysPage({ keys: keys.list(), session, created }), 201);
        } catch (error) {
          if (error instanceof ApiError) return page(keysPage({ keys: keys.list(), session, values, error: error.message }), error.status);
          throw error;
        }
      },
      { body: KeyForm, detail: { hide: true } },
    )
    .post(
      `${KEYS_PATH}/:id/update`,
      ({ params, body }) => {
        const values = body as KeyFormValues;
        const key = keys.list().find((candidate) => candidate.id === params.id);
        if (!key) return page(keysPage({ keys: keys.list(), session, error: "That key does not exist (any more)." }), 404);
        const read = updateRequestFrom(values);
        if ("problem" in read) return page(keysPage({ keys: keys.list(), session, edit: { key, values, error: read.problem } }), 400);
        try {
          const updated = keys.update(key.id, read.request);
          return new Response(null, { status: 303, headers: { location: `${KEYS_PATH}?updated=${encodeURIComponent(updated.name)}` } });
        } catch (error) {
          if (error instanceof ApiError) return page(keysPage({ keys: keys.list(), session, edit: { key, values, error: error.message } }), error.status);
          throw error;
        }
      },
      { params: IdParams, body: KeyForm, detail: { hide: true } },
    )
    .post(
      `${KEYS_PATH}/:id/remove`,
      ({ params }) => {
        try {
          const removed = keys.remove(params.id);
          return new Response(null, { status: 303, headers: { location: `${KEYS_PATH}?removed=${encodeURIComponent(removed.name)}` } });
        } catch (error) {
          if (error instanceof ApiError) return page(keysPage({ keys: keys.list(), session, error: error.message }), error.status);
          throw error;
        }
      },
      { params: IdParams, detail: { hide: true } },
    )
    .get(
      USAGE_PATH,
      async ({ query }) => {
        const since = typeof query.since === "string" && /^[1-9][0-9]{0,5}[mhdw]$/.test(query.since) ? query.since : DEFAULT_SINCE;
        const by = (USAGE_GROUPINGS as readonly string[]).includes(String(query.by)) ? (query.by as UsageGrouping) : "key";
        const hours = (USAGE_HOURLY_WINDOWS as readonly string[]).includes(String(query.hours)) ? (query.hours as UsageHourlyWindow) : "day";
        return page(usagePage({ report: await usageReport({ store: usage, keys, client }, { since, by, hours }, new Date(), true), session, since }));
      },
      { detail: { hide: true } },
    );
}
