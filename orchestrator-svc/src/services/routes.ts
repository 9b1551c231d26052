import { Elysia } from "elysia";
import { requestsWait, SERVICE_ROUTES_PATH, type ServiceRoute } from "@svc/contracts";
import type { ServiceStore } from "../db/service-store";
import { toServiceRecord } from "./records";
import { identityOf } from "../workloads/records";
import { serverOf } from "../engines/api-key";

/**
 * The live services, and the stopped ones a request starts again (--on-demand), with their addresses and API keys, for the gateway's /v1 routing (internal
 * route behind the internal secret, not in the API document: it carries the keys).
 */
export function serviceRoutesController(store: ServiceStore) {
  return new Elysia({ name: "orchestrator/routes" }).get(
    SERVICE_ROUTES_PATH,
    (): ServiceRoute[] =>
      [...store.live(), ...store.dormantOnDemand()].map((row) => {
        const record = toServiceRecord(row);
        return {
          ...identityOf(row),
          server: serverOf(row.runtime),
          url: record.url,
          apiKey: row.apiKey,
          createdAt: row.createdAt,
          onDemand: record.policies.onDemand,
          waits: requestsWait(record.policies),
        };
      }),
    { detail: { hide: true } },
  );
}
