import type { ActivityRecorder } from "../activity";
import type { OnDemandStarts } from "../on-demand/ensure-serving";

/** The lifecycle policies' part in /v1: idle clocks see its requests, and a model whose service is on demand starts it. */
export interface V1Lifecycle {
  activity: Pick<ActivityRecorder, "touch">;
  starts: Pick<OnDemandStarts, "ensureServing">;
}
