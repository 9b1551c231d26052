import { badRequest, DEFAULT_RENEW_BEFORE, DEFAULT_START_TIMEOUT, parseDuration, type Profile, type RunRequest } from "@svc/contracts";
import type { EngineCapabilities } from "../engines/engine";

/** The policy columns of a service record (seconds; null when off). */
export interface PolicyColumns {
  idleStopSeconds: number | null;
  onDemand: boolean;
  startTimeoutSeconds: number;
  renewBeforeSeconds: number | null;
}

function seconds(option: string, text: string): number {
  const value = parseDuration(text);
  if (value === undefined) throw badRequest(`${option} ${JSON.stringify(text)}: give a duration such as 30s, 30m, 2h, 1h30m or HH:MM:SS.`);
  return value;
}

/**
 * The policies of a run request, with the profile's idle_stop as the default for --idle-stop
 * (`--idle-stop 0` turns it off), or a 400 naming what to fix. Renewal is for Slurm jobs with a
 * --time: a Docker container has no wall time, so --renew there is refused rather than ignored.
 */
export function resolvePolicies(request: RunRequest, profile: Profile, capabilities: Pick<EngineCapabilities, "slurmJobOptions">): PolicyColumns {
  const policies = request.policies ?? {};
  const idleText = policies.idleStop ?? profile.idle_stop;
  const idle = idleText === undefined ? null : seconds(policies.idleStop === undefined ? `the profile's idle_stop` : "--idle-stop", idleText);
  const startTimeout = seconds("--start-timeout", policies.startTimeout ?? DEFAULT_START_TIMEOUT);
  if (startTimeout < 1) throw badRequest("--start-timeout must be at least 1s.");
  if (policies.renewBefore !== undefined && !policies.renew) throw badRequest("--renew-before needs --renew.");
  let renewBefore: number | null = null;
  if (policies.renew) {
    if (!capabilities.slurmJobOptions) {
      throw badRequest(`--renew is for Slurm jobs, which end at their --time; profile ${profile.name} runs Docker containers, which have no time limit: leave --renew out.`);
    }
    const time = request.job?.time;
    if (!time) throw badRequest("--renew needs --time: the successor job is submitted --renew-before the job's time limit.");
    const limit = parseDuration(time);
    renewBefore = seconds("--renew-before", policies.renewBefore ?? DEFAULT_RENEW_BEFORE);
    if (limit !== undefined && renewBefore >= limit) {
      throw badRequest(`--renew-before ${policies.renewBefore ?? DEFAULT_RENEW_BEFORE} must be shorter than --time ${time}: give a shorter --renew-before (e.g. a quarter of the time).`);
    }
    if (renewBefore < 30) throw badRequest("--renew-before must be at least 30s: the successor needs time to start.");
  }
  return { idleStopSeconds: idle === 0 ? null : idle, onDemand: policies.onDemand ?? false, startTimeoutSeconds: startTimeout, renewBeforeSeconds: renewBefore };
}
