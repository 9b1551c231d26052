import { proxyError } from "../../proxy/proxy-error";

const who = (name: string) => (name === "svc-token" ? "the svc token" : name === "anonymous" ? "callers without a key" : `the key '${name}'`);

/**
 * The 429s of a saturated model, in OpenAI's shape with `rate_limit_exceeded` and Retry-After (the
 * official clients retry after it by themselves): it waited the queue time limit, or its key
 * already has the most requests waiting.
 */
export const queueRefusal = {
  waitedTooLong(model: string, capacity: number | null, waitedSeconds: number, retryAfter: number): Response {
    const busy = capacity === null ? "every replica is busy" : `its replicas have their ${capacity} requests at once in flight`;
    return proxyError(
      429,
      "rate_limit_exceeded",
      `The model '${model}' is saturated: ${busy}, and this request waited ${waitedSeconds} s for a slot in the fair-share queue (the limit, SVC_FAIR_SHARE_QUEUE_SECONDS). Retry after ${retryAfter} s.`,
      { "retry-after": String(retryAfter) },
      null,
      "requests",
    );
  },
  keyQueueFull(model: string, caller: string, perKey: number, retryAfter: number): Response {
    return proxyError(
      429,
      "rate_limit_exceeded",
      `The model '${model}' is saturated and ${who(caller)} already has ${perKey} requests waiting for it (the most one key may have waiting, SVC_FAIR_SHARE_QUEUE_PER_KEY). Retry after ${retryAfter} s.`,
      { "retry-after": String(retryAfter) },
      null,
      "requests",
    );
  },
};
