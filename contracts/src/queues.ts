import { Type, type Static } from "@sinclair/typebox";
import { ServiceTier } from "./keys";

/** One key's requests waiting for a model in one tier. */
export const QueuedKey = Type.Object(
  {
    key: Type.String({ description: "The key's name, or `svc-token` / `anonymous` (callers without a key share one queue each)." }),
    tier: ServiceTier,
    weight: Type.Integer({ minimum: 1, description: "The key's share against the other keys waiting in its tier." }),
    waiting: Type.Integer({ minimum: 1 }),
    oldestSeconds: Type.Number({ minimum: 0, description: "How long its longest-waiting request has waited." }),
  },
  { $id: "QueuedKey" },
);
export type QueuedKey = Static<typeof QueuedKey>;

/** The fair-share queue of one model, as the gateway holds it now. */
export const ModelQueue = Type.Object(
  {
    model: Type.String({ description: "The repo id." }),
    capacity: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: "Requests its HEALTHY services take at once (their --target-inflight or --parallel); null: not known, never queued." }),
    inFlight: Type.Integer({ minimum: 0, description: "Requests on those services now (through /v1 and /proxy)." }),
    waiting: Type.Integer({ minimum: 0 }),
    keys: Type.Array(QueuedKey, { description: "Who waits, highest tier first, then the longest waiting first." }),
    typicalWaitSeconds: Type.Number({ minimum: 0, description: "About how long requests waited for a slot lately (what Retry-After of a refusal says)." }),
    refused: Type.Object(
      {
        timeout: Type.Integer({ minimum: 0, description: "Refused with 429 after waiting the queue time limit." }),
        full: Type.Integer({ minimum: 0, description: "Refused with 429 at once: the key already had the most requests waiting." }),
      },
      { description: "Since the gateway started." },
    ),
  },
  { $id: "ModelQueue" },
);
export type ModelQueue = Static<typeof ModelQueue>;

export const QueueReport = Type.Object(
  {
    fairShare: Type.Object({
      enabled: Type.Boolean({ description: "Off (SVC_FAIR_SHARE=false): requests go to the replicas as they come, none waits." }),
      queueSeconds: Type.Integer({ description: "The longest a request waits before 429 (SVC_FAIR_SHARE_QUEUE_SECONDS)." }),
      perKey: Type.Integer({ description: "Requests of one key that may wait for one model (SVC_FAIR_SHARE_QUEUE_PER_KEY)." }),
    }),
    models: Type.Array(ModelQueue, { description: "Every model that had to queue a request since the gateway started (waiting 0 once it drained)." }),
  },
  { $id: "QueueReport" },
);
export type QueueReport = Static<typeof QueueReport>;

export const QueueQuery = Type.Object({
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: "Only this model (repo id)." })),
});
export type QueueQuery = Static<typeof QueueQuery>;
