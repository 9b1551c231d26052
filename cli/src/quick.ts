import { createContext } from "./context";
import { consoleIo } from "./io";
import { EXIT, reportError } from "./errors";

/**
 * `svc ls` and `svc model ls` (or `list`) as typed most, without options (main.ts picks them out):
 * the same code as through program.ts (listServices, listModels with their defaults), without the
 * option parser and without any other command's modules.
 */
export async function runQuick(args: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  const { ctx, loadedSettings } = createContext(consoleIo, env);
  try {
    if (args[0] === "ls") await (await import("./commands/services/ls")).listServices(ctx, {});
    else await (await import("./commands/model/ls")).listModels(ctx, {});
    return EXIT.ok;
  } catch (error) {
    return reportError(error, consoleIo.err, loadedSettings(), args[0]);
  }
}
