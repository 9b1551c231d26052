import rootPackage from "../../package.json" with { type: "json" };

export const VERSION: string = rootPackage.version;

/**
 * The licence the API document names: the root package.json's `license`, an SPDX identifier. While
 * no licence is chosen it is npm's UNLICENSED, written as the SPDX reference LicenseRef-UNLICENSED.
 */
export const LICENSE: { name: string; identifier: string } =
  rootPackage.license === "UNLICENSED"
    ? { name: "UNLICENSED: no licence has been granted yet", identifier: "LicenseRef-UNLICENSED" }
    : { name: rootPackage.license, identifier: rootPackage.license };
