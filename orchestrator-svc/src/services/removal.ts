import { conflict } from "@svc/contracts";
import type { Engine } from "../engines/engine";
import { engineFailure } from "./engine-failure";

interface Removable {
  id: string;
  status: string;
  handle: string | null;
}

/**
 * `rm` of a service or a batch job: a live one only with `force` (stopped first), then the engine
 * frees what it keeps (the stopped container), then the record goes. Returns the row as it was last.
 */
export async function removeRecord<Row extends Removable>(
  row: Row,
  how: {
    force: boolean;
    live: boolean;
    /** "Service" or "Batch job", and the CLI command that stops one. */
    what: string;
    stopCommand: string;
    stop(id: string): Promise<unknown>;
    reread(id: string): Row;
    engine: Engine;
    forget(id: string): void;
  },
): Promise<Row> {
  if (how.live) {
    if (!how.force) throw conflict(`${how.what} ${row.id} is ${row.status}: stop it first ('${how.stopCommand} ${row.id.slice(0, 13)}'), or remove it with --force.`);
    if (row.status !== "STOPPING") await how.stop(row.id);
    row = how.reread(row.id);
  }
  if (row.handle) {
    await how.engine.release(row.handle).catch((error) => {
      throw engineFailure(error, `The engine did not remove the ${how.what.toLowerCase()}'s container`);
    });
  }
  how.forget(row.id);
  return row;
}
