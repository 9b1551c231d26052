import rootPackage from "../../package.json" with { type: "json" };

export const VERSION: string = rootPackage.version;

/**
 * The licence the API document names: the root package.json's `license` (an SPDX identifier, or
 * npm's UNLICENSED while none is chosen).
 */
export const LICENSE: { name: string; identifier?: string } =
  rootPackage.license === "UNLICENSED" ? { name: "UNLICENSED: no licence has been granted yet" } : { name: rootPackage.license, identifier: rootPackage.license };
