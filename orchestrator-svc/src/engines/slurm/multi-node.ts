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
 * A wrapper run by `srun` on each node: runs its arguments, and when they end (the node's part of
 * the group is gone: killed, crashed, its node lost) says so on the job's output naming the node,
 * and exits non-zero so `--kill-on-bad-exit` ends the step and the job script notices.
 */
const nodeWrapper = (what: string, extra = "") =>
  shellQuote(
    `"$@"${extra}; code=$?; printf '${FAILED_MARK}node %s lost: %s ended (exit %s)\\n' "\${SLURMD_NODENAME:-$(hostname)}" "${what}" "$code" >&2; exit 1`,
  );

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
 * Whichever part ends first ends the job: a node's part ending writes a FAILED_MARK line naming
 * the node, and the job exits 1 so the service FAILS with that reason.
 */
export function multiNodeLines(engine: GpuEngine, nodes: number, server: string[]): string[] {
  const lines = [`echo "svc: ${engine === "vllm" ? "vLLM over Ray" : "SGLang"} across ${nodes} nodes, head $node ($addr)"`, OTHERS];
  if (engine === "sglang") {
    return [
      ...lines,
      ...pickPort("dist_port"),
      // Each rank's node rank is its node's index in the allocation: the head (this node) is 0.
      [...srun(nodes, []), "bash", "-c", nodeWrapper("its SGLang rank", ' --node-rank "$SLURM_NODEID"'), "svc-rank", ...server, "--nnodes", String(nodes), "--dist-init-addr", '"$addr:$dist_port"'].join(" "),
      "code=$?",
      `printf '${FAILED_MARK}the SGLang group on %s ended (srun exit %s)\\n' "$node,$others" "$code" >&2`,
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
    `  kill -0 "$workers" 2>/dev/null || { wait "$workers"; printf '${FAILED_MARK}the Ray workers on %s ended before the group formed (srun exit %s)\\n' "$others" "$?" >&2; exit 1; }`,
    `  kill -0 "$ray_head" 2>/dev/null || { printf '${FAILED_MARK}the Ray head on %s ended\\n' "$node" >&2; exit 1; }`,
    "  sleep 1",
    "done",
    `echo "svc: Ray counts ${nodes} nodes: starting vLLM"`,
    `${server.join(" ")} --distributed-executor-backend ray &`,
    "server=$!",
    "wait -n",
    `if ! kill -0 "$workers" 2>/dev/null; then wait "$workers"; printf '${FAILED_MARK}the Ray workers on %s ended (srun exit %s)\\n' "$others" "$?" >&2; exit 1; fi`,
    `if ! kill -0 "$ray_head" 2>/dev/null; then printf '${FAILED_MARK}node %s lost: its Ray head ended\\n' "$node" >&2; exit 1; fi`,
    'wait "$server"',
    "exit $?",
  ];
}
