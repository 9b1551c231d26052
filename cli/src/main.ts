import { sourcesInstead, type BundleOrigin } from "./bundle-check";

declare global {
  /** Set only in the bundle (cli/build-bundle.ts defines it): what it was built from. */
  var SVC_BUNDLE: BundleOrigin | undefined;
}

const args = process.argv.slice(2);
const origin = globalThis.SVC_BUNDLE;
const instead = origin && sourcesInstead(origin, import.meta.dir, args[0]);
if (instead) {
  await import(instead);
} else if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  // `svc --version` answers before anything else is loaded; `svc ls` and `svc model ls` load only what they use (quick.ts).
  const { VERSION } = await import("@svc/contracts/version");
  console.log(`svc ${VERSION}`);
} else if ((args.length === 1 && args[0] === "ls") || (args.length === 2 && args[0] === "model" && (args[1] === "ls" || args[1] === "list"))) {
  const { runQuick } = await import("./quick");
  process.exitCode = await runQuick(args);
} else {
  const [{ runCli }, { consoleIo }] = await Promise.all([import("./program"), import("./io")]);
  process.exitCode = await runCli(args, consoleIo);
}
