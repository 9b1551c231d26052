import { runCli } from "./program";
import { consoleIo } from "./io";

process.exitCode = await runCli(process.argv.slice(2), consoleIo);
