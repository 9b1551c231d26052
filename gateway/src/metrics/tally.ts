import type { Counter } from "@svc/platform/metrics";

/**
 * A counter's sums per label set, added to per request in a Map keyed by the label values, and
 * handed to the prom-client counter when it is scraped (its `collect`). prom-client's own labelled
 * `inc` validates and hashes the labels on every call (~1.5 µs, four times for each /v1 request).
 */
export class CounterTally<Name extends string> {
  private readonly sums = new Map<string, { labels: Record<Name, string>; value: number }>();

  constructor(readonly labelNames: readonly Name[]) {}

  /** Adds `amount` for the label values, given in `labelNames`' order. */
  add(amount: number, ...values: string[]): void {
    const key = values.join("\u0000");
    const sum = this.sums.get(key);
    if (sum) sum.value += amount;
    else this.sums.set(key, { labels: Object.fromEntries(this.labelNames.map((name, i) => [name, values[i]])) as Record<Name, string>, value: amount });
  }

  /** Sets `counter` to the sums. */
  setInto(counter: Counter<Name>): void {
    counter.reset();
    for (const { labels, value } of this.sums.values()) counter.inc(labels, value);
  }
}
