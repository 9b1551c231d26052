import { SERVICE_TIERS, type ModelQueue as ModelQueueView, type QueueReport, type QueuedKey } from "@svc/contracts";
import { capacityOf } from "./capacity";
import type { FairShareGate } from "./gate";
import type { ModelQueue } from "./model-queue";

const seconds = (ms: number) => Math.round(ms) / 1000;

function modelView(queue: ModelQueue, count: (serviceId: string) => number, now: number): ModelQueueView {
  const keys: QueuedKey[] = [];
  for (const { tier, weight, items } of queue.waiting.waiting()) {
    keys.push({ key: items[0]!.flow.name, tier, weight, waiting: items.length, oldestSeconds: seconds(now - items[0]!.since) });
  }
  return {
    model: queue.model,
    capacity: capacityOf(queue.services),
    inFlight: queue.services.reduce((sum, service) => sum + count(service.id), 0),
    waiting: queue.waiting.size,
    keys: keys.sort((a, b) => SERVICE_TIERS.indexOf(a.tier) - SERVICE_TIERS.indexOf(b.tier) || b.oldestSeconds - a.oldestSeconds),
    typicalWaitSeconds: queue.typicalWaitSeconds,
    refused: { ...queue.refused },
  };
}

/** The fair-share settings and every model's queue now (`model`: only that one), as GET /api/queues, `svc details` and /metrics show them. */
export function queueReport(gate: FairShareGate, count: (serviceId: string) => number, model?: string): QueueReport {
  const now = performance.now();
  const models = [...gate.models()].filter((queue) => model === undefined || queue.model === model).map((queue) => modelView(queue, count, now));
  return { fairShare: { ...gate.settings }, models: models.sort((a, b) => a.model.localeCompare(b.model)) };
}
