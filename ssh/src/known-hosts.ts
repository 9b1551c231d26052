import { createHash, createHmac } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";

/** One key line of a known_hosts file (OpenSSH format, sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT"). */
export interface KnownHostEntry {
  file: string;
  /** 1-based line number. */
  line: number;
  marker: "@revoked" | "@cert-authority" | undefined;
  patterns: string;
  keyType: string;
  keyBase64: string;
}

/** The name OpenSSH records a host under: `host`, or `[host]:port` for a port other than 22. */
export function knownHostName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** The key type inside an SSH public key blob (its first length-prefixed string), e.g. `ssh-ed25519`. */
export function keyTypeOf(blob: Buffer): string {
  if (blob.length < 4) return "unknown";
  const length = blob.readUInt32BE(0);
  return blob.subarray(4, 4 + length).toString("latin1");
}

/** `SHA256:…` as `ssh-keygen -lf` and ssh print it. */
export function fingerprint(blob: Buffer): string {
  return `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
}

/** A short name for a key type as OpenSSH prints it, e.g. ED25519, ECDSA, RSA. */
export function keyTypeLabel(keyType: string): string {
  if (keyType === "ssh-ed25519") return "ED25519";
  if (keyType.startsWith("ecdsa-")) return "ECDSA";
  if (keyType === "ssh-rsa") return "RSA";
  return keyType.toUpperCase();
}

function globToRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*").replaceAll("?", ".");
  return new RegExp(`^${body}$`, "i");
}

/** Whether a host-pattern field (comma-separated, wildcards, `!` negation, or one hashed `|1|salt|hash`) matches `name`. */
export function patternsMatch(patterns: string, name: string): boolean {
  if (patterns.startsWith("|1|")) {
    const [, , salt, hash] = patterns.split("|");
    if (!salt || !hash) return false;
    const computed = createHmac("sha1", Buffer.from(salt, "base64")).update(name).digest("base64");
    return computed === hash;
  }
  let matched = false;
  for (const raw of patterns.split(",")) {
    const negated = raw.startsWith("!");
    const pattern = negated ? raw.slice(1) : raw;
    if (!pattern || !globToRegExp(pattern).test(name)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

export function parseKnownHosts(text: string, file: string): KnownHostEntry[] {
  const entries: KnownHostEntry[] = [];
  text.split(/\r?\n/).forEach((rawLine, index) => {
    const line = rawLine.trim();
    if (!line || line.startsWith("#")) return;
    const fields = line.split(/\s+/);
    let marker: KnownHostEntry["marker"];
    if (fields[0] === "@revoked" || fields[0] === "@cert-authority") marker = fields.shift() as KnownHostEntry["marker"];
    else if (fields[0].startsWith("@")) return;
    const [patterns, keyType, keyBase64] = fields;
    if (!patterns || !keyType || !keyBase64) return;
    entries.push({ file, line: index + 1, marker, patterns, keyType, keyBase64 });
  });
  return entries;
}

export interface HostKeyVerdict {
  status: "known" | "unknown" | "changed" | "revoked";
  /** For `known`, `changed` and `revoked`: the entry that decided it. */
  entry?: KnownHostEntry;
  /** Key types recorded for this host (used to prefer them when negotiating, as OpenSSH does). */
  recordedTypes: string[];
}

function readEntries(files: string[]): KnownHostEntry[] {
  return files.flatMap((file) => (existsSync(file) && statSync(file).isFile() ? parseKnownHosts(readFileSync(file, "utf8"), file) : []));
}

/** Key types recorded for `name` in `files`, so negotiation can ask the server for one of those first. */
export function recordedKeyTypes(files: string[], name: string): string[] {
  return [...new Set(readEntries(files).filter((e) => !e.marker && patternsMatch(e.patterns, name)).map((e) => e.keyType))];
}

/**
 * Checks a host key against known_hosts files as OpenSSH does: a revoked key is refused; a
 * recorded identical key is known; a host with recorded keys but not this one has changed;
 * otherwise it is unknown.
 */
export function verifyHostKey(files: string[], name: string, blob: Buffer): HostKeyVerdict {
  const entries = readEntries(files);
  const keyBase64 = blob.toString("base64");
  const revoked = entries.find((e) => e.marker === "@revoked" && e.keyBase64 === keyBase64);
  const forHost = entries.filter((e) => !e.marker && patternsMatch(e.patterns, name));
  const recordedTypes = [...new Set(forHost.map((e) => e.keyType))];
  if (revoked) return { status: "revoked", entry: revoked, recordedTypes };
  const same = forHost.find((e) => e.keyBase64 === keyBase64);
  if (same) return { status: "known", entry: same, recordedTypes };
  if (forHost.length > 0) return { status: "changed", entry: forHost[0], recordedTypes };
  return { status: "unknown", recordedTypes };
}

/** Appends `name keytype key` to `file` (creating it and its folder, private), like ssh's accept-new. */
export function recordHostKey(file: string, name: string, blob: Buffer): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  let prefix = "";
  if (existsSync(file)) {
    const text = readFileSync(file, "utf8");
    if (text.length > 0 && !text.endsWith("\n")) prefix = "\n";
  }
  appendFileSync(file, `${prefix}${name} ${keyTypeOf(blob)} ${blob.toString("base64")}\n`, { mode: 0o600 });
}
