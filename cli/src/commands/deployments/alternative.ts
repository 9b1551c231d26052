import type { DeploymentDetails } from "@svc/contracts";
import { StateError } from "../../errors";
import { DEPLOYMENT, type Alternative } from "../workloads";
import { formatDeploymentDetails } from "./format";
import { queueSection } from "../services/queue";

/** What `svc details`, `svc stop` and `svc rm` do with a ref that names a deployment rather than a service. */
export const AS_DEPLOYMENT: Alternative = {
  kind: DEPLOYMENT,
  words: {
    format: formatDeploymentDetails,
    more: (client, d: DeploymentDetails) => queueSection(client, d.model),
    liveRefusal: (d: DeploymentDetails) =>
      new StateError(
        `deployment ${d.name} is ${d.status} with ${d.healthy + d.coming} replica${d.healthy + d.coming === 1 ? "" : "s"} up or on the way: ` +
          `stop it first ('svc stop ${d.name}'), or remove it running with 'svc rm --force ${d.name}'.`,
      ),
    afterQuestion: " Its replicas' records go with it.",
  },
};
