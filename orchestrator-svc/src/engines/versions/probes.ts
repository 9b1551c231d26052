import type { GpuEngine, Profile } from "@svc/contracts";
import type { FoundVersion } from "./probe";
import type { Engines } from "../registry";
import { versionOfImage } from "./probe";

/**
 * Where a profile's engine version is read: on a local profile the image's label or tag (Docker
 * here); on a slurm profile over its connection, in the Apptainer image or a bare job's python3.
 */
export function versionProbe(engines: Engines, labels: (image: string) => Promise<Record<string, string> | undefined>) {
  return async (profile: Profile, engine: GpuEngine, image: string | null): Promise<FoundVersion> => {
    if (profile.schema === "slurm") return engines.slurmFor(profile).engineVersion(engine, image);
    if (image === null) return { version: null, how: "a local profile runs images" };
    return versionOfImage(image, await labels(image));
  };
}
