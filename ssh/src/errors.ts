/** What went wrong when connecting; callers turn each kind into their own message or status. */
export type SshErrorKind =
  | "unreachable" // no TCP connection (refused, unknown host name, timeout)
  | "no-keys" // no usable private key was found
  | "auth" // the server refused every key offered
  | "host-key-changed" // the server's key differs from the one recorded in known_hosts
  | "host-key-revoked" // the server's key is marked @revoked in known_hosts
  | "host-key-unknown" // strict mode only: no key recorded for the host, and not the one the user confirmed
  | "protocol"; // anything else in the SSH handshake

export class SshError extends Error {
  constructor(
    readonly kind: SshErrorKind,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "SshError";
  }
}
