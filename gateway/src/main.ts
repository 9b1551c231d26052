import { exitOnConfigError, listenUntilSignal } from "@svc/platform";
import { readGatewayEnv } from "./gateway-env";
import { createGateway } from "./app";

const env = exitOnConfigError(() => readGatewayEnv());
// Port 0 (svc start --port 0) takes the kernel's choice; /api/info then reports the port bound.
env.settings.port = listenUntilSignal(createGateway(env), "gateway", env.settings.host, env.settings.port);
