import { createContext } from "./context";
import { consoleIo, type Io } from "./io";
import { EXIT, reportError } from "./errors";

/** What runQuick answers when the bundle turned out to be stale: nothing was printed, run the sources. */
export const STALE = "stale";

export interface QuickOptions {
  io?: Io;
  env?: Record<string, string | undefined>;
  /**
   * The bundle's check that it is current (bundle-check.ts), run while the listing's request is out
   * so its stats cost no time; until it has said so, output is held back, and dropped if it is not.
   */
  isStale?: () => boolean;
}

/**
 * `svc ls` and `svc model ls` (or `list`) as typed most, without options (main.ts picks them out):
 * the same code as through program.ts (listServices, listModels with their defaults), without the
 * option parser and without any other command's modules.
 */
export async function runQuick(args: string[], options: QuickOptions = {}): Promise<number | typeof STALE> {
  const { io = consoleIo, env = process.env, isStale } = options;
  let stale: boolean | undefined;
  const check = isStale && (() => void (stale ??= isStale()));
  const held: Array<() => void> = [];
  const output: Io = check ? { out: (text) => held.push(() => io.out(text)), err: (text) => held.push(() => io.err(text)) } : io;
  const { ctx, loadedSettings } = createContext(output, env, check);
  let code: number;
  try {
    // Only the listing asked for is loaded: each brings its own modules.
    if (args[0] === "ls") await (await import("./commands/services/ls")).listServices(ctx, {});
    else await (await import("./commands/model/ls")).listModels(ctx, {});
    code = EXIT.ok;
  } catch (error) {
    code = reportError(error, output.err, loadedSettings(), args[0]);
  }
  check?.();
  if (stale) return STALE;
  for (const write of held) write();
  return code;
}
