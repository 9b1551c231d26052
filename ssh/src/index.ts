export { connectSsh, hostKeyAddedNotice, SshSession, FAST_KEX, type ConnectOptions, type HostKeyInfo } from "./connect";
export { resolveTarget, type ResolvedTarget, type SshTarget } from "./config";
export { SshError, type SshErrorKind } from "./errors";
export { loadKeys, DEFAULT_KEY_NAMES } from "./keys";
export {
  fingerprint,
  keyTypeOf,
  knownHostName,
  parseKnownHosts,
  patternsMatch,
  recordHostKey,
  verifyHostKey,
  type KnownHostEntry,
} from "./known-hosts";
export { remotePathWord, shellQuote } from "./quote";
export * from "./cluster";
