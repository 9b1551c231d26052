import { chownSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Services' API keys as files on this machine, `<folder>/<service id>`, each mounted read-only
 * into its container: mode 0600, owned by the user the container runs as (svc's own user, or the
 * stand-in for root), in a folder only svc's user can enter. The key itself is kept in the
 * orchestrator's database; a file lives while its container does.
 */
export class ApiKeyFiles {
  constructor(
    private readonly folder: string,
    /** `uid:gid` of the container's user. */
    private readonly owner: string,
  ) {}

  path(serviceId: string): string {
    return join(this.folder, serviceId);
  }

  write(serviceId: string, key: string): string {
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const file = this.path(serviceId);
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${key}\n`, { mode: 0o600 });
    const [uid, gid] = this.owner.split(":").map(Number);
    if (process.getuid?.() === 0 && uid !== 0) chownSync(temporary, uid, gid);
    renameSync(temporary, file);
    return file;
  }

  remove(serviceId: string) {
    rmSync(this.path(serviceId), { force: true });
  }
}
