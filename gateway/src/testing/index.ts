/** Test support: /v1 in front of real runtime replicas (tests and the bench). */
export { startReplicaRig, RIG_DEPLOYMENT, RIG_MODEL, type ReplicaRig } from "./replica-rig";
export { longPrefixes, runPrefixWorkload, type PrefixRequest } from "./prefix-workload";
