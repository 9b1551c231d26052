/**
 * What the bundle `npm install` builds (cli/bundle.ts) was built from: every workspace source that
 * went in, each folder holding one (a file added or removed there changes the folder's time), and
 * when (the time of a file written just before the build, on the same clock as the sources').
 */
export interface BundleOrigin {
  built: number;
  /** Relative to the checkout. */
  sources: string[];
}

/**
 * Where the bundle should run the sources instead of itself, if it should: when a source changed
 * since the build (an edit is never hidden by a stale bundle), and for `svc start`, which starts the
 * services from their sources. One stat per source, no node:fs (loading it would cost more than them all).
 */
export function sourcesInstead(origin: BundleOrigin, bundleDir: string, command: string | undefined): string | undefined {
  const root = `${bundleDir}/../../`;
  const stale = command === "start" || origin.sources.some((path) => Bun.file(root + path).lastModified > origin.built);
  return stale ? `${root}cli/src/main.ts` : undefined;
}
