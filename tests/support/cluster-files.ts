import type { SshTestHost } from "./ssh-test-host";

/** The svc profile's home (~/svc) as the test cluster's user `svc` has it. */
export const CLUSTER_HOME = "/home/svc/svc";

/** Commands and file listings on the Slurm test cluster, as its user `svc`. */
export function clusterFiles(cluster: SshTestHost) {
  const onCluster = async (command: string) => {
    const result = await cluster.execAsUser(command);
    if (result.exitCode !== 0) throw new Error(`${command} failed on the cluster: ${result.output}`);
    return result.output;
  };
  /** Files under a folder on the cluster (a batch job's state folder left out), with their mtimes to the nanosecond. */
  const outputs = async (dir: string): Promise<Map<string, string>> => {
    const text = await onCluster(`[ -d ${dir} ] && find ${dir} -path '*/.svc-batch' -prune -o -type f -printf '%P %T@\\n' || true`);
    return new Map(text.split("\n").filter(Boolean).map((line) => line.split(" ") as [string, string]));
  };
  return { onCluster, outputs };
}
