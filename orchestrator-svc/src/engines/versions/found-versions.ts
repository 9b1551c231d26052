import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { FoundEngineVersion, GpuEngine, Profile } from "@svc/contracts";
import type { FoundVersion } from "./probe";

/** How long a version read stays good: an image keeps its version, but a cluster's Python may be upgraded. */
export const FOUND_VERSION_TTL_MS = 60 * 60 * 1000;
/** A read that takes longer (a cluster not answering) counts as none, so `svc run` goes on with the pinned list. */
export const FOUND_VERSION_WAIT_MS = 20_000;

/** Reads `engine`'s version where `profile` runs it from `image` (null: a bare job's Python). */
export type VersionProbe = (profile: Profile, engine: GpuEngine, image: string | null) => Promise<FoundVersion>;

type Entry = FoundEngineVersion & { profile: string };

/**
 * The engine versions found per profile, engine and image, kept in a JSON file (svc profile show
 * lists them) and read again after FOUND_VERSION_TTL_MS. A probe that fails counts as no version
 * (the launch then checks against the pinned list) and is not kept.
 */
export class FoundVersions {
  private entries: Entry[];
  private readonly pending = new Map<string, Promise<FoundVersion | null>>();

  constructor(private readonly file: string, private readonly probe: VersionProbe, private readonly now = Date.now, private readonly waitMs = FOUND_VERSION_WAIT_MS) {
    this.entries = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Entry[]) : [];
  }

  /** The version of `engine` for a launch of `image` (null: a bare job) on `profile`: cached, else read there now (one read at a time per key). */
  async find(profile: Profile, engine: GpuEngine, image: string | null): Promise<FoundVersion | null> {
    const key = `${profile.name}\n${engine}\n${image}`;
    const running = this.pending.get(key);
    if (running) return running;
    const reading = this.read(profile, engine, image).finally(() => this.pending.delete(key));
    this.pending.set(key, reading);
    return reading;
  }

  /** What was found on `profile`, newest first. */
  list(profile: string): FoundEngineVersion[] {
    return this.entries
      .filter((entry) => entry.profile === profile)
      .map(({ profile: _profile, ...found }) => found)
      .sort((a, b) => b.foundAt.localeCompare(a.foundAt));
  }

  private async read(profile: Profile, engine: GpuEngine, image: string | null): Promise<FoundVersion | null> {
    const probed = this.entries.find((entry) => entry.profile === profile.name && entry.engine === engine && entry.image === image && this.now() - Date.parse(entry.foundAt) < FOUND_VERSION_TTL_MS);
    if (probed) return { version: probed.version, how: probed.how };
    let found: FoundVersion;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("no answer in time")), this.waitMs)));
      found = await Promise.race([this.probe(profile, engine, image), late]);
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
    const entry: Entry = { profile: profile.name, engine, image, version: found.version, how: found.how, foundAt: new Date(this.now()).toISOString() };
    this.entries = [...this.entries.filter((each) => !(each.profile === profile.name && each.engine === engine && each.image === image)), entry];
    this.save();
    return { version: found.version, how: found.how };
  }

  private save() {
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.entries, null, 2)}\n`);
    renameSync(temporary, this.file);
  }
}
