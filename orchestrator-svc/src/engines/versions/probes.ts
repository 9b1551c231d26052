import type { GpuEngine, Profile } from "@svc/contracts";
import type { FoundVersion } from "./probe";
import type { Engines } from "../registry";
import { readProbe, VERSION_LINE, versionOfImage } from "./probe";

export interface LocalImages {
  /** The image's labels, or undefined when Docker here does not have it. */
  labels(image: string): Promise<Record<string, string> | undefined>;
  /** `python3 -c line` in a throwaway container of the image. */
  python(image: string, line: string): Promise<{ code: number; stdout: string }>;
}

/**
 * Where a profile's engine version is read: on a local profile the image's label or tag, else the
 * package in the image (Docker here, when it has the image); on a slurm profile over its
 * connection, in the Apptainer image or a bare job's python3.
 */
export function versionProbe(engines: Engines, local: LocalImages) {
  return async (profile: Profile, engine: GpuEngine, image: string | null): Promise<FoundVersion> => {
    if (profile.schema === "slurm") return engines.slurmFor(profile).engineVersion(engine, image);
    if (image === null) return { version: null, how: "a local profile runs images" };
    const labels = await local.labels(image);
    const named = versionOfImage(image, labels);
    if (named.version !== null || labels === undefined) return named;
    const ran = await local.python(image, VERSION_LINE[engine]);
    const version = ran.code === 0 ? readProbe(ran.stdout) : null;
    return { version, how: version ? `the package in ${image}` : `${image}: no ${engine} package found by python3 (exit code ${ran.code})` };
  };
}
