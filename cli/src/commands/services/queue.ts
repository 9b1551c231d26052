import type { SvcClient } from "@svc/client";
import type { QueueReport } from "@svc/contracts";
import { formatTable } from "../../output/table";

/** The fair-share queue of `model` as `svc details` shows it: who waits, per key and tier, and what was refused. */
export function formatQueue(report: QueueReport, model: string): string {
  const { fairShare } = report;
  if (!fairShare.enabled) return `Queue: fair share is off (SVC_FAIR_SHARE=false): requests for ${model} go to its replicas as they come.`;
  const bounds = `at most ${fairShare.queueSeconds} s, ${fairShare.perKey} a key`;
  const queue = report.models.find((entry) => entry.model === model);
  if (!queue) return `Queue (fair share, ${bounds}): none has waited for ${model}.`;
  const slots = queue.capacity === null ? `${queue.inFlight} in flight` : `${queue.inFlight} in flight of ${queue.capacity} at once`;
  const refused = `refused: ${queue.refused.timeout} after the time limit, ${queue.refused.full} with the key's queue full`;
  const head = `Queue (fair share, ${bounds}): ${queue.waiting} waiting for ${model}, ${slots}; typical wait ${queue.typicalWaitSeconds} s; ${refused}.`;
  if (queue.keys.length === 0) return head;
  return `${head}\n${formatTable(["key", "tier", "weight", "waiting", "oldest"], queue.keys.map((key) => [key.key, key.tier, key.weight, key.waiting, `${key.oldestSeconds.toFixed(1)} s`]))}`;
}

/** The queue part of `svc details` for a workload of `model`; nothing when the gateway does not say. */
export async function queueSection(client: SvcClient, model: string): Promise<string | undefined> {
  try {
    return formatQueue(await client.queues.report({ model }), model);
  } catch {
    return undefined;
  }
}
