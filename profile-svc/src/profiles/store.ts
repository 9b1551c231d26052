import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { processAlive } from "@svc/platform/process";
import { dirname, basename, join } from "node:path";
import { randomBytes } from "node:crypto";
import type { Profile } from "@svc/contracts";
import { IniDocument, LineError } from "./ini-document";
import { profileFromSection } from "./codec";

/** profiles.cfg cannot be used as it is: names the file and the line to fix. */
export class ProfilesFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file} line ${line}: ${reason}.`);
    this.name = "ProfilesFileError";
  }
}

/** profiles.cfg is held by another writer for too long. */
export class ProfilesFileBusyError extends Error {
  override name = "ProfilesFileBusyError";
}

export interface ProfilesState {
  /** Whether the file exists. */
  exists: boolean;
  doc: IniDocument;
  profiles: Profile[];
}

const LOCK_WAIT_MS = 15_000;

/**
 * The profiles file. Reads parse it fresh each time (it may be edited by hand). Writes are
 * serialised — in this process by a queue, across processes (the app and a CLI working on the
 * file directly) by a lock file — and atomic: a temporary file in the same folder, then rename.
 * A file that does not parse is reported with its line and never written.
 */
export class ProfileStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  private parse(text: string): ProfilesState {
    try {
      const doc = IniDocument.parse(text);
      return { exists: true, doc, profiles: doc.sections().map(profileFromSection) };
    } catch (error) {
      if (error instanceof LineError) throw new ProfilesFileError(this.file, error.line, error.reason);
      throw error;
    }
  }

  /** The file as it is now. A missing file is an empty one. */
  load(): ProfilesState {
    if (!existsSync(this.file)) return { exists: false, doc: IniDocument.parse(""), profiles: [] };
    return this.parse(readFileSync(this.file, "utf8"));
  }

  /**
   * Runs `change` on the freshly read file while holding the write lock, then writes the document
   * atomically. If `change` throws, nothing is written.
   */
  update<T>(change: (state: ProfilesState) => T): Promise<T> {
    const run = this.queue.then(() => this.locked(change));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async locked<T>(change: (state: ProfilesState) => T): Promise<T> {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const release = await this.acquireFileLock();
    try {
      const state = this.load();
      const result = change(state);
      this.writeAtomically(state.doc.toString());
      return result;
    } finally {
      release();
    }
  }

  private lockFile(): string {
    return `${this.file}.lock`;
  }

  private async acquireFileLock(): Promise<() => void> {
    const lock = this.lockFile();
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        const fd = openSync(lock, "wx", 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return () => {
          try {
            unlinkSync(lock);
          } catch {
            // already gone
          }
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(lock, "utf8"));
      } catch {
        continue; // released meanwhile
      }
      if (Number.isInteger(holder) && holder > 0 && !processAlive(holder)) {
        try {
          unlinkSync(lock); // left by a process that died
        } catch {
          // someone else removed it
        }
        continue;
      }
      if (Date.now() > deadline) {
        throw new ProfilesFileBusyError(`${this.file} is being written by process ${holder} (lock ${lock}); try again, or remove the lock file if that process is gone.`);
      }
      await Bun.sleep(10);
    }
  }

  private writeAtomically(text: string): void {
    const mode = existsSync(this.file) ? statSync(this.file).mode & 0o777 : 0o644;
    const temporary = join(dirname(this.file), `.${basename(this.file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
    const fd = openSync(temporary, "w", mode);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      renameSync(temporary, this.file);
    } catch (error) {
      try {
        unlinkSync(temporary);
      } catch {
        // nothing to clean
      }
      throw error;
    }
  }
}
