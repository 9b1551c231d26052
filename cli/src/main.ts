// `svc --version` answers before anything else is loaded.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  const { VERSION } = await import("@svc/contracts/version");
  console.log(`svc ${VERSION}`);
} else {
  const [{ runCli }, { consoleIo }] = await Promise.all([import("./program"), import("./io")]);
  process.exitCode = await runCli(args, consoleIo);
}
export {};
