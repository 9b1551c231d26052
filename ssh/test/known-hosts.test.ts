import { afterAll, describe, expect, test } from "bun:test";
import { createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ed25519KeyPair } from "@svc/testing";
import { fingerprint, keyTypeOf, knownHostName, patternsMatch, recordHostKey, remotePathWord, resolveTarget, shellQuote, verifyHostKey } from "../src";

const dir = mkdtempSync(join(tmpdir(), "svc-ssh-unit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function hostKey(): Buffer {
  const pair = ed25519KeyPair();
  return Buffer.from(pair.public.split(" ")[1], "base64");
}

function hashed(name: string): string {
  const salt = randomBytes(20);
  return `|1|${salt.toString("base64")}|${createHmac("sha1", salt).update(name).digest("base64")}`;
}

describe("known_hosts", () => {
  const key = hostKey();
  const other = hostKey();

  test("names, key types and fingerprints as OpenSSH writes them", () => {
    expect(knownHostName("h.example", 22)).toBe("h.example");
    expect(knownHostName("127.0.0.1", 2222)).toBe("[127.0.0.1]:2222");
    expect(keyTypeOf(key)).toBe("ssh-ed25519");
    expect(fingerprint(key)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });

  test("patterns: lists, wildcards, negation, brackets and hashed names", () => {
    expect(patternsMatch("a.example,b.example", "b.example")).toBe(true);
    expect(patternsMatch("*.example,!bad.example", "good.example")).toBe(true);
    expect(patternsMatch("*.example,!bad.example", "bad.example")).toBe(false);
    expect(patternsMatch("[127.0.0.1]:2222", "[127.0.0.1]:2222")).toBe(true);
    expect(patternsMatch("[127.0.0.1]:2222", "1")).toBe(false);
    expect(patternsMatch("node-??", "node-01")).toBe(true);
    expect(patternsMatch(hashed("[198.51.100.5]:22"), "[198.51.100.5]:22")).toBe(true);
    expect(patternsMatch(hashed("other"), "[198.51.100.5]:22")).toBe(false);
  });

  test("verdicts: unknown, known (plain or hashed), changed, revoked", () => {
    const file = join(dir, "known_hosts");
    const b64 = (k: Buffer) => k.toString("base64");
    expect(verifyHostKey([file], "h", key).status).toBe("unknown");
    writeFileSync(file, `# comment\n${hashed("h")} ssh-ed25519 ${b64(key)}\nother ssh-ed25519 ${b64(other)}\n`);
    expect(verifyHostKey([file], "h", key).status).toBe("known");
    const changed = verifyHostKey([file], "h", other);
    expect(changed.status).toBe("changed");
    expect(changed.entry?.line).toBe(2);
    writeFileSync(file, `@revoked * ssh-ed25519 ${b64(key)}\n`);
    expect(verifyHostKey([file], "anything", key).status).toBe("revoked");
  });

  test("recording appends one line, adding a missing newline first", () => {
    const file = join(dir, "sub", "known_hosts");
    recordHostKey(file, "[h]:2", key);
    expect(readFileSync(file, "utf8")).toBe(`[h]:2 ssh-ed25519 ${key.toString("base64")}\n`);
    writeFileSync(file, "x ssh-ed25519 AAAA");
    recordHostKey(file, "y", key);
    expect(readFileSync(file, "utf8")).toBe(`x ssh-ed25519 AAAA\ny ssh-ed25519 ${key.toString("base64")}\n`);
  });
});

describe("~/.ssh/config", () => {
  test("aliases give host name, port, user, identity files and known_hosts files; explicit values win", () => {
    const home = join(dir, "home");
    const ssh = join(home, ".ssh");
    require("node:fs").mkdirSync(ssh, { recursive: true });
    writeFileSync(
      join(ssh, "config"),
      "Host cluster\n  HostName login.%h.example\n  Port 2200\n  User alice\n  IdentityFile ~/.ssh/cluster_key\n  UserKnownHostsFile ~/.ssh/kh\n\nHost *\n  ConnectTimeout 7\n",
    );
    const resolved = resolveTarget({ host: "cluster" }, { userHome: home, localUser: "me" });
    expect(resolved).toMatchObject({
      hostName: "login.cluster.example",
      port: 2200,
      user: "alice",
      identityFiles: [join(ssh, "cluster_key")],
      identitiesOnly: false,
      knownHostsFiles: [join(ssh, "kh")],
      hostKeyName: "login.cluster.example",
      connectTimeoutSeconds: 7,
    });
    const explicit = resolveTarget({ host: "cluster", user: "bob", port: 22, identityFile: "~/k" }, { userHome: home, localUser: "me" });
    expect(explicit).toMatchObject({ user: "bob", port: 22, identityFiles: [join(home, "k")], identitiesOnly: true });
    expect(resolveTarget({ host: "plain" }, { userHome: home, localUser: "me" })).toMatchObject({ hostName: "plain", port: 22, user: "me", identityFiles: [] });
  });
});

describe("quoting", () => {
  test("user text is one shell word", () => {
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(remotePathWord("~")).toBe(`"$HOME"`);
    expect(remotePathWord("~/x $(y)")).toBe(`"$HOME"/'x $(y)'`);
    expect(remotePathWord("/a'b")).toBe(`'/a'\\''b'`);
  });
});
