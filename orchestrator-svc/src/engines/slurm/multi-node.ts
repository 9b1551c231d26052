import { shellQuote } from "@svc/ssh";
import type { GpuEngine } from "@svc/contracts";

/**
 * How a job script says on its output that its service failed while it ran (a node of the group
 * lost): the reason of its FAILED status leads with the rest of that line (see job-status.ts).
 */
export const FAILED_MARK = "svc: failed: ";

/** Another free port on the head node, picked as the server's was (PORT_PICKER defines port_busy). */
const pickPort = (variable: string) => [
  `${variable}=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))`,
  `while port_busy "$${variable}" || [ "$${variable}" = "$port" ]; do ${variable}=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 )); done`,
];

/** The other nodes of the allocation, comma-separated (for a reason when a step ends without saying which). */
const OTHERS = `others=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | grep -vx "$node" | paste -sd, -)`;

/**
 * Where a node's part, when it ends, writes when (ns), its exit code, the node and what ended, one
 * file per node in the job's work folder (the home the nodes share). When a node's part ends the
 * others soon follow (the engines' groups fall apart, srun ends the rest), and their lines on the
 * job's output may come in any order: the part that ended first is the one the job names.
 */
const ENDED = "svc-part-ended";

/**
 * A wrapper run by `srun` on each node: runs its arguments, and when they end (the node's part of
 * the group is gone: killed, crashed, its node lost) records it (ENDED) and says so on the job's
 * output, and exits non-zero so `--kill-on-bad-exit` ends the step and the job script notices.
 */
const nodeWrapper = (what: string, extra = "") =>
  shellQuote(
    `"$@"${extra}; code=$?; at=$(date +%s%N); node="\${SLURMD_NODENAME:-$(hostname)}"; printf '%s %s %s ${what}\\n' "$at" "$code" "$node" > ${ENDED}."$node"; printf 'svc: node %s: ${what} ended (exit %s)\\n' "$node" "$code" >&2; exit 1`,
  );

/** `first_lost`: says, as the job's FAILED reason, which node's part ended first; fails when none has said it ended. */
const FIRST_LOST = [
  "first_lost() {",
  `  set -- $(cat ${ENDED}.* 2>/dev/null | sort -n | head -n 1)`,
  '  [ "$#" -ge 4 ] || return 1',
  '  code=$2 lost=$3; shift 3',
  `  printf '${FAILED_MARK}node %s lost: %s ended (exit %s)\\n' "$lost" "$*" "$code" >&2`,
  "}",
  `rm -f ${ENDED}.*`,
];

const srun = (nodes: number, extra: string[]) => ["srun", `--nodes=${nodes}`, `--ntasks=${nodes}`, "--ntasks-per-node=1", "--kill-on-bad-exit=1", ...extra];

/**
 * The body of a job whose server spans `nodes` nodes (after PORT_PICKER: `$node`, `$addr` and
 * `$port` are the head's, the first node of the allocation, where the batch script runs).
 *
 * - vLLM over Ray: the Ray head here, one Ray worker on each other node (`srun`), then, once Ray
 *   counts every node, vLLM's server here with the Ray executor; its health check answers only
 *   once the engine has its GPUs on every node.
 * - SGLang: one server process per node (`srun`), each with its node rank and the head's
 *   rendezvous address; rank 0 serves HTTP once every rank has joined.
 *
 * Whichever part ends first ends the job: it writes a FAILED_MARK line naming the node whose part
 * ended first, and exits 1 so the service FAILS with that reason.
 */
export function multiNodeLines(engine: GpuEngine, nodes: number, server: string[]): string[] {
  const lines = [`echo "svc: ${engine === "vllm" ? "vLLM over Ray" : "SGLang"} across ${nodes} nodes, head $node ($addr)"`, OTHERS, ...FIRST_LOST];
  if (engine === "sglang") {
    return [
      ...lines,
      ...pickPort("dist_port"),
      // Each rank's node rank is its node's index in the allocation: the head (this node) is 0.
      [...srun(nodes, []), "bash", "-c", nodeWrapper("its SGLang rank", ' --node-rank "$SLURM_NODEID"'), "svc-rank", ...server, "--nnodes", String(nodes), "--dist-init-addr", '"$addr:$dist_port"'].join(" "),
      "code=$?",
      `first_lost || printf '${FAILED_MARK}the SGLang group on %s ended (srun exit %s)\\n' "$node,$others" "$code" >&2`,
      "exit 1",
    ];
  }
  return [
    ...lines,
    ...pickPort("ray_port"),
    'export RAY_ADDRESS="$addr:$ray_port"',
    "trap 'kill $(jobs -p) 2>/dev/null' EXIT",
    'ray start --head --node-ip-address="$addr" --port="$ray_port" --block &',
    "ray_head=$!",
    [...srun(nodes - 1, ['--exclude="$node"']), "bash", "-c", nodeWrapper("its Ray worker"), "svc-worker", "ray", "start", '--address="$RAY_ADDRESS"', "--block"].join(" ") + " &",
    "workers=$!",
    `ray_nodes() { ray status --address "$RAY_ADDRESS" 2>/dev/null | awk '/^Active:/ { on = 1; next } /^[A-Za-z]/ { on = 0 } on && /node_/ { n++ } END { print n + 0 }'; }`,
    `until [ "$(ray_nodes)" -ge ${nodes} ]; do`,
    `  kill -0 "$workers" 2>/dev/null || { wait "$workers"; code=$?; first_lost || printf '${FAILED_MARK}the Ray workers on %s ended before the group formed (srun exit %s)\\n' "$others" "$code" >&2; exit 1; }`,
    `  kill -0 "$ray_head" 2>/dev/null || { printf '${FAILED_MARK}the Ray head on %s ended\\n' "$node" >&2; exit 1; }`,
    "  sleep 1",
    "done",
    `echo "svc: Ray counts ${nodes} nodes: starting vLLM"`,
    `${server.join(" ")} --distributed-executor-backend ray &`,
    "server=$!",
    "wait -n",
    // A node lost takes vLLM down too, maybe before srun has seen that node's part end: the workers' step gets a moment to end.
    'for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$workers" 2>/dev/null || break; sleep 0.5; done',
    "first_lost && exit 1",
    `if ! kill -0 "$workers" 2>/dev/null; then wait "$workers"; printf '${FAILED_MARK}the Ray workers on %s ended (srun exit %s)\\n' "$others" "$?" >&2; exit 1; fi`,
    `if ! kill -0 "$ray_head" 2>/dev/null; then printf '${FAILED_MARK}node %s lost: its Ray head ended\\n' "$node" >&2; exit 1; fi`,
    'wait "$server"',
    "exit $?",
  ];
}
