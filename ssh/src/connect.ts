import { userInfo, homedir } from "node:os";
import type { Algorithms, AnyAuthMethod, Client, ConnectConfig } from "ssh2";
import { resolveTarget, type ResolvedTarget, type SshTarget } from "./config";
import { SshError } from "./errors";
import { loadKeys } from "./keys";
import { fingerprint, keyTypeLabel, keyTypeOf, knownHostName, recordedKeyTypes, recordHostKey, verifyHostKey, type KnownHostEntry } from "./known-hosts";

/**
 * Key exchange: elliptic-curve methods first. Classic Diffie-Hellman is very slow under Bun
 * (group14 0.6 s, group16 almost 4 s), so only group14 is kept, as a last resort.
 */
export const FAST_KEX = [
  "curve25519-sha256",
  "curve25519-sha256@libssh.org",
  "ecdh-sha2-nistp256",
  "ecdh-sha2-nistp384",
  "ecdh-sha2-nistp521",
  "diffie-hellman-group14-sha256",
] as const;

const HOST_KEY_ALGORITHMS = ["ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"];

/** Host key algorithms, those of key types already recorded for the host first (as OpenSSH orders them). */
function hostKeyAlgorithms(recordedTypes: string[]): string[] {
  const preferred = recordedTypes.flatMap((type) => (type === "ssh-rsa" ? ["rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"] : [type]));
  const known = preferred.filter((algorithm) => HOST_KEY_ALGORITHMS.includes(algorithm));
  return [...new Set([...known, ...HOST_KEY_ALGORITHMS])];
}

export interface HostKeyInfo {
  /** e.g. ssh-ed25519 */
  type: string;
  /** e.g. SHA256:… */
  fingerprint: string;
  /** `known`: it matched known_hosts; `added`: the host was new and its key was recorded now. */
  status: "known" | "added";
  /** The known_hosts file it was found in or added to. */
  file: string;
  /** The name it is recorded under, e.g. `[127.0.0.1]:2222`. */
  name: string;
}

export interface ConnectOptions {
  /** The local user's home (holds .ssh/); default $HOME. */
  userHome?: string;
  /**
   * `accept-new` (default): record an unknown host's key. `strict`: refuse an unknown host unless
   * its key has `confirmedFingerprint`, which is then recorded. A changed key is always refused.
   */
  hostKeyPolicy?: "accept-new" | "strict";
  /** The SHA256 fingerprint (as ssh prints it) the user checked and accepted for a host not in known_hosts yet. */
  confirmedFingerprint?: string;
  /** Handshake and authentication time limit; default ConnectTimeout from the config, else 15 s. */
  timeoutMs?: number;
  /** Keep-alive interval for long-lived connections (0: off). */
  keepaliveMs?: number;
  env?: Record<string, string | undefined>;
}

/** An open SSH connection (ClusterConnection runs commands over it); `close()` when done. */
export class SshSession {
  constructor(
    readonly client: Client,
    readonly target: ResolvedTarget,
    readonly hostKey: HostKeyInfo,
    /** The key that was accepted (a file path, or `ssh-agent`). */
    readonly authenticatedWith: string,
  ) {}

  close(): void {
    this.client.end();
  }
}

function describeSocketError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused (is sshd running there, on this port?)";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "the host name does not resolve";
    case "ETIMEDOUT":
      return "the connection timed out";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "no route to the host";
    case "ECONNRESET":
      return "the connection was reset";
    default:
      return error.message;
  }
}

function changedKeyWarning(target: ResolvedTarget, name: string, offered: Buffer, entry: KnownHostEntry | undefined): string {
  return [
    `WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED for ${name}!`,
    `The ${keyTypeLabel(keyTypeOf(offered))} key it sent has fingerprint ${fingerprint(offered)}, which is not the key recorded` +
      (entry ? ` in ${entry.file} line ${entry.line}` : "") +
      `. Someone could be intercepting the connection, or the host was reinstalled.`,
    `svc did not connect and left known_hosts unchanged. If you know the change is legitimate, remove the old key with ` +
      `\`ssh-keygen -R '${name}'\` and try again.`,
  ].join(" ");
}

/**
 * Connects to `target` with key authentication, applying ~/.ssh/config and verifying the host key
 * against known_hosts (see ConnectOptions.hostKeyPolicy). Throws SshError with a clear message.
 */
export async function connectSsh(target: SshTarget, options: ConnectOptions = {}): Promise<SshSession> {
  const env = options.env ?? process.env;
  const userHome = options.userHome ?? (env.HOME || homedir());
  const localUser = env.USER || env.LOGNAME || userInfo().username;
  const resolved = resolveTarget(target, { userHome, localUser });
  const name = knownHostName(resolved.hostKeyName, resolved.port);
  const where = `${resolved.user}@${resolved.alias}${resolved.alias !== resolved.hostName || resolved.port !== 22 ? ` (${resolved.hostName}:${resolved.port})` : ""}`;

  // ssh2 (with node:net, node:crypto and its streams, ~100 ms) loads on the first connection, not with
  // every service that may make one: most apps never open a Slurm profile's connection.
  const ssh2 = await import("ssh2");
  const { keys, skipped } = loadKeys(resolved.identityFiles, userHome, ssh2.utils.parseKey);
  const agent = !resolved.identitiesOnly ? env.SSH_AUTH_SOCK : undefined;
  // With no key at all ssh still connects (so an unreachable host is reported as such) and then fails to log in.
  const looked = resolved.identityFiles.length > 0 ? resolved.identityFiles.join(", ") : `${userHome}/.ssh/id_{rsa,ecdsa,ed25519}`;
  const noKeys = () =>
    new SshError("no-keys", `No usable SSH private key to log in to ${where}: looked at ${looked}${skipped.length ? ` (${skipped.join("; ")})` : ""}. Create one with ssh-keygen and add its .pub to ~/.ssh/authorized_keys on the server.`, { skipped });
  const methods: AnyAuthMethod[] = [];
  if (agent) methods.push({ type: "agent" as const, username: resolved.user, agent });
  for (const { key } of keys) methods.push({ type: "publickey" as const, username: resolved.user, key });
  const offered = [...(agent ? ["ssh-agent"] : []), ...keys.map((k) => k.path)];
  let attempt = 0;
  const authHandler = (_methodsLeft: unknown, _partial: unknown, next: (method: AnyAuthMethod | false) => void) => {
    const method = methods[attempt++];
    next(method ?? false);
  };

  const recorded = recordedKeyTypes(resolved.knownHostsFiles, name);
  let hostKey: HostKeyInfo | undefined;
  let pendingRecord: Buffer | undefined;
  let refusal: SshError | undefined;
  const policy = options.hostKeyPolicy ?? "accept-new";

  const hostVerifier = (blob: Buffer) => {
    const verdict = verifyHostKey(resolved.knownHostsFiles, name, blob);
    const info = { type: keyTypeOf(blob), fingerprint: fingerprint(blob), name };
    switch (verdict.status) {
      case "known":
        hostKey = { ...info, status: "known", file: verdict.entry!.file };
        return true;
      case "unknown":
        if (policy === "strict" && options.confirmedFingerprint !== info.fingerprint) {
          const confirmed = options.confirmedFingerprint ? ` (not ${options.confirmedFingerprint}, the one confirmed)` : "";
          refusal = new SshError(
            "host-key-unknown",
            `The authenticity of host '${name}' can't be established: it is not in ${resolved.knownHostsFiles[0]}, and its ${keyTypeLabel(info.type)} key fingerprint is ${info.fingerprint}${confirmed}. ` +
              "Check that fingerprint with the cluster's administrators before accepting it; svc recorded nothing.",
            info,
          );
          return false;
        }
        pendingRecord = blob;
        hostKey = { ...info, status: "added", file: resolved.knownHostsFiles[0] };
        return true;
      case "revoked":
        refusal = new SshError("host-key-revoked", `The host key of ${name} (${info.fingerprint}) is marked @revoked in ${verdict.entry!.file} line ${verdict.entry!.line}; svc refused to connect.`, info);
        return false;
      case "changed":
        refusal = new SshError("host-key-changed", changedKeyWarning(resolved, name, blob, verdict.entry), {
          ...info,
          knownHostsFile: verdict.entry?.file,
          knownHostsLine: verdict.entry?.line,
        });
        return false;
    }
  };

  const timeoutMs = options.timeoutMs ?? (resolved.connectTimeoutSeconds ? resolved.connectTimeoutSeconds * 1000 : 15_000);
  const config: ConnectConfig = {
    host: resolved.hostName,
    port: resolved.port,
    username: resolved.user,
    readyTimeout: timeoutMs,
    keepaliveInterval: options.keepaliveMs ?? 0,
    authHandler: authHandler as ConnectConfig["authHandler"],
    hostVerifier,
    algorithms: { kex: [...FAST_KEX], serverHostKey: hostKeyAlgorithms(recorded) } as Algorithms,
  };

  const client = new ssh2.Client();
  let authenticatedWith = "";
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const fail = (error: SshError) => {
      if (settled) return;
      settled = true;
      client.end();
      reject(error);
    };
    client.once("ready", () => {
      settled = true;
      authenticatedWith = offered[Math.max(0, attempt - 1)] ?? "";
      resolve();
    });
    client.on("error", (error: Error & { level?: string; code?: string }) => {
      if (refusal) return fail(refusal);
      if (error.level === "client-socket" || error.code) {
        return fail(new SshError("unreachable", `Cannot reach ${where}: ${describeSocketError(error)}.`, { code: error.code }));
      }
      if (error.level === "client-timeout") {
        return fail(new SshError("unreachable", `Cannot reach ${where}: no SSH handshake within ${timeoutMs / 1000} s.`));
      }
      if (error.level === "client-authentication") {
        if (offered.length === 0) return fail(noKeys());
        return fail(
          new SshError(
            "auth",
            `${resolved.hostName} refused the SSH key${offered.length > 1 ? "s" : ""} for user ${resolved.user} (tried ${offered.join(", ")})` +
              `${skipped.length ? `; skipped ${skipped.join("; ")}` : ""}. Add your public key to ~${resolved.user}/.ssh/authorized_keys on the server (e.g. with ssh-copy-id), or name the right key file.`,
            { offered },
          ),
        );
      }
      fail(new SshError("protocol", `SSH connection to ${where} failed: ${error.message}`));
    });
    client.once("close", () => fail(refusal ?? new SshError("unreachable", `${where} closed the connection during the SSH handshake.`)));
    try {
      client.connect(config);
    } catch (error) {
      fail(new SshError("protocol", `Cannot connect to ${where}: ${(error as Error).message}`));
    }
  });

  if (pendingRecord && hostKey) {
    const verdict = verifyHostKey(resolved.knownHostsFiles, name, pendingRecord);
    if (verdict.status === "unknown") recordHostKey(resolved.knownHostsFiles[0], name, pendingRecord);
  }
  return new SshSession(client, resolved, hostKey!, authenticatedWith);
}

/** The message OpenSSH prints when it records a new host key, for callers to show. */
export function hostKeyAddedNotice(hostKey: HostKeyInfo): string {
  return `Permanently added '${hostKey.name}' (${keyTypeLabel(hostKey.type)}, ${hostKey.fingerprint}) to the list of known hosts in ${hostKey.file}.`;
}
