import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GpuReading } from "./reading";

/**
 * The last GPU reading of each profile: one JSON file per profile under profile-svc's data folder
 * ($SVC_HOME_DIR/data/profile-svc/gpus/NAME.json; profiles.cfg is the user's and holds no facts), or
 * in memory when no folder is given. Written atomically; a file that does not parse counts as none.
 */
export class GpuCache {
  private readonly memory = new Map<string, GpuReading>();

  constructor(private readonly dir?: string) {}

  private file(profile: string): string {
    return join(this.dir!, `${profile}.json`);
  }

  load(profile: string): GpuReading | undefined {
    if (!this.dir) return this.memory.get(profile);
    try {
      const reading = JSON.parse(readFileSync(this.file(profile), "utf8")) as GpuReading;
      return Array.isArray(reading.partitions) && typeof reading.checkedAt === "string" ? reading : undefined;
    } catch {
      return undefined;
    }
  }

  save(profile: string, reading: GpuReading): void {
    if (!this.dir) {
      this.memory.set(profile, reading);
      return;
    }
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const temporary = `${this.file(profile)}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(reading), { mode: 0o600 });
    renameSync(temporary, this.file(profile));
  }

  forget(profile: string): void {
    this.memory.delete(profile);
    if (this.dir) rmSync(this.file(profile), { force: true });
  }
}
