import { Type, type Static } from "@sinclair/typebox";
import { DeploymentEvent, DeploymentRecord } from "./deployments";
import { ServiceRecord } from "./services";

/** GET /api/deployments/{ref}: the deployment, its replicas (services) and its scaling events, oldest first. */
export const DeploymentDetails = Type.Composite(
  [DeploymentRecord, Type.Object({ replicas: Type.Array(ServiceRecord), events: Type.Array(DeploymentEvent) })],
  { $id: "DeploymentDetails" },
);
export type DeploymentDetails = Static<typeof DeploymentDetails>;
