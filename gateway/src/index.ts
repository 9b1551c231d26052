export { createGateway } from "./app";
export { readGatewayEnv, type GatewayEnv } from "./gateway-env";
