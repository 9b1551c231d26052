import type { ModelQueue, QueuedKey, QueueReport } from "@svc/contracts";

/** A fair-share report (GET /api/queues) of one model with `keys` waiting, fair share on with its defaults; `fields` change the model's entry. */
export function queueReportOf(model: string, keys: QueuedKey[], fields: Partial<ModelQueue> = {}): QueueReport {
  return {
    fairShare: { enabled: true, queueSeconds: 60, perKey: 256 },
    models: [
      {
        model,
        capacity: 2,
        inFlight: 3,
        waiting: keys.reduce((sum, key) => sum + key.waiting, 0),
        keys,
        typicalWaitSeconds: 1,
        refused: { timeout: 0, full: 0 },
        ...fields,
      },
    ],
  };
}
