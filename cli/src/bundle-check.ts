/**
 * What the bundle `npm install` builds (cli/bundle.ts) was built from: every workspace source that
 * went in, each folder holding one (a file added or removed there changes the folder's time), and
 * when (the time of a file written just before the build, on the same clock as the sources').
 */
export interface BundleOrigin {
  built: number;
  /** Relative to the checkout. */
  sources: string[];
  /** Those of what `svc ls` and `svc model ls` load (quick.ts), as places in `sources`. */
  quick: number[];
}

/**
 * The bundle's way back to the sources: where their main.ts is, and whether the bundle is stale, that
 * is a source changed since the build (an edit is never hidden by a stale bundle); `quickStale`, whether
 * one of the sources of `svc ls` and `svc model ls` did (another command's edit leaves their code as
 * built). One stat per source, without node:fs (loading it would cost more than all the stats).
 */
export function bundleSources(origin: BundleOrigin, bundleDir: string): { main: string; stale(): boolean; quickStale(): boolean } {
  const root = `${bundleDir}/../../`;
  const changed = (path: string) => Bun.file(root + path).lastModified > origin.built;
  return {
    main: `${root}cli/src/main.ts`,
    stale: () => origin.sources.some(changed),
    quickStale: () => origin.quick.some((i) => changed(origin.sources[i])),
  };
}
