import { t } from "elysia";
import { ServiceStatus } from "@svc/contracts";
import { SERVICE_WORDS } from "../workloads/lookup";
import { refParams, removeQuery } from "../workloads/model";

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1000;

export const ListQuery = t.Object({
  status: t.Optional(ServiceStatus),
  id: t.Optional(t.String({ maxLength: 36, description: "Only ids starting with this." })),
  all: t.Optional(t.Boolean({ description: "The whole history; without it (and without status), live services and those that ended in the last 24 hours." })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT, description: `Services per page (default ${DEFAULT_LIST_LIMIT}).` })),
  cursor: t.Optional(t.String({ minLength: 1, maxLength: 512, description: "Where the previous page ended: its X-Next-Cursor header." })),
});

export const RefParams = refParams(SERVICE_WORDS);
export const RemoveQuery = removeQuery(SERVICE_WORDS);

export const LogsQuery = t.Object({
  follow: t.Optional(t.Boolean()),
  tail: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000, description: "Only the last N lines." })),
});

export const RestartQuery = t.Object({
  onDemand: t.Optional(t.Boolean({ description: "Started by a request for an on-demand service (the gateway): a live service is left as it is, and the event says why it started." })),
});

export const ActivityAnswer = t.Object({ recorded: t.Integer({ description: "How many of the reported services exist." }) });

/** DELETE /api/services/{ref}/adapters?adapter=…: a query is a plain object (AdapterChange, the POST body, is a named schema). */
export const AdapterQuery = t.Object({ adapter: t.String({ minLength: 1, maxLength: 256, description: "The adapter's repo id, as the service serves it." }) });
