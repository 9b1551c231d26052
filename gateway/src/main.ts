import { exitOnConfigError, listenUntilSignal } from "@svc/platform";
import { readGatewayEnv } from "./gateway-env";
import { createGateway } from "./app";

const env = exitOnConfigError(() => readGatewayEnv());
listenUntilSignal(createGateway(env), "gateway", env.settings.host, env.settings.port);
