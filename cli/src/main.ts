import { bundleSources, type BundleOrigin } from "./bundle-check";

declare global {
  /** Set only in the bundle (cli/build-bundle.ts defines it): what it was built from. */
  var SVC_BUNDLE: BundleOrigin | undefined;
}

const args = process.argv.slice(2);
const quick = (args.length === 1 && args[0] === "ls") || (args.length === 2 && args[0] === "model" && (args[1] === "ls" || args[1] === "list"));
const origin = globalThis.SVC_BUNDLE;
const sources = origin && bundleSources(origin, import.meta.dir);
if (sources && (args[0] === "start" || (!quick && sources.stale()))) {
  await import(sources.main);
} else if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  // `svc --version` answers before anything else is loaded; `svc ls` and `svc model ls` load only what they use (quick.ts).
  const { VERSION } = await import("@svc/contracts/version");
  console.log(`svc ${VERSION}`);
} else if (quick) {
  // The bundle checks that the sources of what it loads are current while the listing's request is out (quick.ts).
  const { runQuick, STALE } = await import("./quick");
  const code = await runQuick(args, { isStale: sources?.quickStale });
  if (code === STALE) await import(sources!.main);
  else process.exitCode = code;
} else {
  const [{ runCli }, { consoleIo }] = await Promise.all([import("./program"), import("./io")]);
  process.exitCode = await runCli(args, consoleIo);
}
