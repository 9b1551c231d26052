/**
 * Figure 9: prefix-aware routing. Three replicas of the tiny text model (bare svc runtimes with
 * --parallel 2, each sequence keeping the KV cache of its last prompt) behind the gateway's /v1 as
 * one deployment; a workload of 4 long shared system prompts (~2,000 tokens each) taking turns,
 * each with short, different questions (streamed, one at a time). The deployment routes by
 * prefix, then least-busy, alternating for ROUNDS rounds, each round with a fresh set of prompts
 * (no cache carried over from the other side). Printed: the median time to first token of each
 * side, over all rounds; the goal: prefix routing's is lower (ratio < 1).
 */
import { longPrefixes, runPrefixWorkload, startReplicaRig } from "@svc/gateway/testing";
import { median, ms, type Row } from "../lib/measure";

const ROUNDS = 6;
const PER_PREFIX = 8;
const SIDES = ["prefix", "least-busy"] as const;

export async function prefixRouting(): Promise<Row[]> {
  const rig = await startReplicaRig(3, "prefix", ["--parallel", "2"]);
  try {
    const firstToken: Record<(typeof SIDES)[number], number[]> = { prefix: [], "least-busy": [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Which side goes first alternates: a round's first side finds the replicas' caches holding the previous round's prompts.
      for (const side of round % 2 === 0 ? SIDES : [...SIDES].reverse()) {
        rig.setRouting(side);
        const sent = await runPrefixWorkload(rig.url, longPrefixes(4, `${side}${round}`), PER_PREFIX);
        firstToken[side].push(...sent.map((request) => request.firstTokenMs));
        process.stderr.write(`  ${side} round ${round + 1}: median first token ${ms(median(sent.map((request) => request.firstTokenMs)))}\n`);
      }
    }
    const [prefix, leastBusy] = [median(firstToken.prefix), median(firstToken["least-busy"])];
    return [
      {
        figure: `prefix routing, 4 long shared prompts over 3 replicas: median time to first token`,
        svc: `prefix ${ms(prefix)}`,
        comparison: `least-busy ${ms(leastBusy)}`,
        ratio: prefix / leastBusy,
        goal: "< 1.00",
        met: prefix < leastBusy,
      },
    ];
  } finally {
    await rig.stop();
  }
}
