import { t } from "elysia";
import { DEPLOYMENT_WORDS } from "./service";
import { refParams, removeQuery } from "../workloads/model";

export const DeploymentListQuery = t.Object({
  all: t.Optional(t.Boolean({ description: "Every deployment; without it, the active ones and those stopped in the last 24 hours." })),
});

export const DeploymentRefParams = refParams(DEPLOYMENT_WORDS);
export const DeploymentRemoveQuery = removeQuery(DEPLOYMENT_WORDS);
