/** The svc command: `runCli(args, io)` runs it in-process (tests); `./svc` runs main.ts. */
export { runCli, type RunOptions } from "./program";
export { consoleIo, type Io, type CliContext } from "./io";
export { EXIT } from "./errors";
