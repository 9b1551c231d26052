import { Elysia, type AnyElysia } from "elysia";
import { INTERNAL_SECRET_HEADER, SERVICE_HEALTH_PATH, SERVICE_OPENAPI_PATH, type ServiceName } from "@svc/contracts";
import { errorHandler } from "../http/error-handler";
import { jsonError } from "../http/api-error";
import { secretsEqual } from "../security/constant-time";
import { openApiPart } from "../openapi/document-part";

/**
 * The shell every internal service shares: JSON errors, the internal-secret guard on every
 * request, a health route and the service's part of the OpenAPI document. `features` are the
 * service's feature controllers (one Elysia instance each).
 */
export function createServiceApp(name: ServiceName, internalSecret: string, features: AnyElysia[] = []) {
  // normalize: false makes typebox reject unknown fields (a typo in an optional field) instead of dropping them.
  const app: AnyElysia = new Elysia({ name, normalize: false, serve: { idleTimeout: 0 } })
    .use(errorHandler)
    .onRequest(({ request }) => {
      if (!secretsEqual(request.headers.get(INTERNAL_SECRET_HEADER), internalSecret)) {
        return jsonError(401, "internal_secret_required", `${name} only answers the svc gateway; send requests to the gateway instead.`);
      }
    })
    .get(SERVICE_HEALTH_PATH, () => ({ status: "ok", service: name, pid: process.pid }))
    .get(SERVICE_OPENAPI_PATH, () => openApiPart(app, (path) => path !== SERVICE_HEALTH_PATH && path !== SERVICE_OPENAPI_PATH));
  for (const feature of features) app.use(feature);
  return app;
}
