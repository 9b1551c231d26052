/**
 * A new ed25519 key pair (OpenSSH format, no passphrase). ssh2's generator drops leading zero bytes
 * of the public key, so about 1 pair in 256 cannot be parsed back (mscdex/ssh2 issues 1390, 1513):
 * such a pair is thrown away and another made. ssh2 is loaded here, not with every test file.
 */
export function ed25519KeyPair(comment?: string): { private: string; public: string } {
  const { utils } = require("ssh2") as typeof import("ssh2");
  for (;;) {
    const pair = utils.generateKeyPairSync("ed25519", comment ? { comment } : undefined);
    if (!(utils.parseKey(pair.private) instanceof Error) && !(utils.parseKey(pair.public) instanceof Error)) return pair;
  }
}
