import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { SESSION_TTL_SECONDS, sessionId } from "./session";

/**
 * Sessions ended by logging out, until they would have expired anyway: a copied cookie is worth
 * nothing after its owner logged out. Kept in a file (mode 0600) so a gateway restart does not
 * bring them back; each line is `<issued>.<nonce>` of one session.
 */
export class RevokedSessions {
  private readonly ids = new Set<string>();

  constructor(private readonly file: string) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return;
    }
    for (const line of text.split("\n")) if (line && !expired(line)) this.ids.add(line);
  }

  has(session: string): boolean {
    const id = sessionId(session);
    return id !== undefined && this.ids.has(id);
  }

  add(session: string) {
    const id = sessionId(session);
    if (id === undefined) return;
    for (const known of this.ids) if (expired(known)) this.ids.delete(known);
    this.ids.add(id);
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, [...this.ids].map((line) => `${line}\n`).join(""), { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}

function expired(id: string, now = Date.now()): boolean {
  const issued = Number(id.split(".")[0]);
  return !Number.isInteger(issued) || Math.floor(now / 1000) - issued > SESSION_TTL_SECONDS;
}
