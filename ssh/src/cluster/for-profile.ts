import type { SlurmProfile } from "@svc/contracts";
import type { ConnectOptions } from "../connect";
import type { ClusterConnection } from "./connection";
import { LocalConnection } from "./local-connection";
import { SshConnection } from "./ssh-connection";

/** The profile attributes a connection depends on: a change in any of them needs a new connection. */
export const connectionKey = (profile: SlurmProfile) => JSON.stringify([profile.host, profile.user, profile.port ?? null, profile.identity_file ?? null]);

/**
 * The connection to a slurm profile's cluster, the one place that maps a profile to how it is
 * reached: `host = localhost` runs commands on this machine; any other host is one SSH connection
 * as `user` (port, key, ~/.ssh/config and known_hosts as `connectSsh` applies them).
 */
export function clusterConnection(profile: SlurmProfile, options: ConnectOptions = {}): ClusterConnection {
  if (profile.host === "localhost") return new LocalConnection({ env: options.env });
  return new SshConnection({ host: profile.host, user: profile.user, port: profile.port, identityFile: profile.identity_file }, options);
}
