import type { Profile } from "@svc/contracts";
import type { EngineCapabilities } from "../src/engines/engine";

/** What the real engines report for a profile (DockerEngine, SlurmEngine), for planner tests that start no engine. */
export function capabilitiesFor(profile: Profile): EngineCapabilities {
  if (profile.schema === "local") return { followsLogs: true, tunnels: false, watches: true, dataPaths: "this-machine", slurmJobOptions: false, runsImages: true };
  return { followsLogs: true, tunnels: true, watches: false, dataPaths: "cluster", slurmJobOptions: true, runsImages: profile.runtime === "apptainer" };
}
