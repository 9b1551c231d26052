export { sshRoundTripsSoFar, type ClusterConnection, type CommandResult, type RunOptions, type SendResult } from "./connection";
export { SshConnection } from "./ssh-connection";
export { LocalConnection, type LocalOptions } from "./local-connection";
export { clusterConnection, connectionKey } from "./for-profile";
export { Tunnels } from "./tunnels";
