import type { ClusterGpus, GpuPartition } from "@svc/contracts";
import { formatBytes } from "@svc/contracts/format-bytes";
import { html } from "../html";

function gpuMemory(partition: GpuPartition) {
  if (partition.gpusPerNode === 0) return "–";
  if (partition.gpuMemoryBytes === null) return "unknown (set gpu_memory)";
  return `${formatBytes(partition.gpuMemoryBytes)} (${partition.gpuMemorySource})`;
}

/** The profile page's partitions and GPUs (as `svc profile show` lists them), or why they could not be read. */
export function partitionsSection(gpus: ClusterGpus | { error: string }) {
  if ("error" in gpus) {
    return html`<section class="card"><h2>Partitions and GPUs</h2><p class="error" role="alert">They could not be read: ${gpus.error}</p></section>`;
  }
  const notes = gpus.partitions.filter((p) => p.note);
  return html`<section class="card" id="partitions">
    <h2>Partitions and GPUs</h2>
    <p class="hint">Read ${gpus.checkedAt} with the profile's check; saving the profile reads them again.</p>
    <table>
      <thead><tr><th>Partition</th><th>Nodes</th><th>GPUs per node</th><th>GPU memory</th><th>CPUs per node</th><th>Memory per node</th><th>Time limit</th></tr></thead>
      <tbody>
        ${gpus.partitions.map(
          (p) => html`<tr>
            <td>${p.name}${p.default ? " (default)" : ""}</td><td>${p.nodes}</td>
            <td>${p.gpusPerNode === 0 ? "0" : `${p.gpusPerNode} × ${p.gpuType ?? "gpu"}`}</td><td>${gpuMemory(p)}</td>
            <td>${p.cpusPerNode}</td><td>${formatBytes(p.memoryBytesPerNode)}</td><td>${p.timeLimit ?? "–"}</td>
          </tr>`,
        )}
      </tbody>
    </table>
    ${notes.map((p) => html`<p class="hint">${p.name}: ${p.note}</p>`)}
  </section>`;
}
