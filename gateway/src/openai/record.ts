import type { Caller } from "./caller";
import type { OutcomeSink, V1Outcome } from "./outcome";

/** What recording a request sets; the rest is the request's own (caller, endpoint, time taken). */
type Fields = Partial<V1Outcome> & Pick<V1Outcome, "status">;

/**
 * The record stage of one /v1 request: its outcome goes to the sink exactly once (a refusal, or
 * the answer once its body is over), and whoever holds something for the request (the admission's
 * counters) is told then, also when the caller went away and nothing is recorded.
 */
export class RequestRecord {
  private ended = false;
  private readonly onEnd: Array<(outcome: V1Outcome | null) => void> = [];
  /** Headers its refusals carry once it was admitted (the key's x-ratelimit-*), as its answers do. */
  carried: Record<string, string> | undefined;

  constructor(
    private readonly sink: OutcomeSink,
    readonly caller: Caller,
    readonly endpoint: string,
    private readonly started: number,
  ) {}

  /** `listener` is called once, when the request is over: with its outcome, or null when the caller went away before an answer. */
  whenOver(listener: (outcome: V1Outcome | null) => void): void {
    this.onEnd.push(listener);
  }

  outcome(fields: Fields): V1Outcome {
    return {
      at: new Date(),
      caller: this.caller,
      endpoint: this.endpoint,
      model: null,
      modelServed: false,
      serviceId: null,
      serviceName: null,
      end: "complete",
      latencyMs: performance.now() - this.started,
      usage: null,
      ...fields,
    };
  }

  /** Records the answer (once). */
  answered(fields: Fields): void {
    if (this.ended) return;
    this.ended = true;
    const outcome = this.outcome(fields);
    this.sink(outcome);
    for (const listener of this.onEnd) listener(outcome);
  }

  /** Records a refusal made here, and answers it. */
  refuse(response: Response, model: string | null, modelServed = false): Response {
    for (const name in this.carried) response.headers.set(name, this.carried[name]);
    this.answered({ status: response.status, model, modelServed });
    return response;
  }

  /** The caller went away before an answer: nothing is recorded, what was held for it is let go. */
  gone(): Response {
    if (!this.ended) {
      this.ended = true;
      for (const listener of this.onEnd) listener(null);
    }
    return new Response(null, { status: 499 });
  }
}
