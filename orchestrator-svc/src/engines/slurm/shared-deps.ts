import type { SlurmProfile } from "@svc/contracts";
import { clusterConnection, type ClusterConnection } from "@svc/ssh";
import { ApptainerImages, type LocalImages } from "./apptainer-images";
import { RuntimeBundles } from "./runtime/bundles";
import { RuntimeInstalls } from "./runtime/installs";
import type { SlurmEngineDeps } from "./slurm-engine";

/**
 * What all Slurm engines of one orchestrator share: one bundle maker (its npm packages cached in
 * `cacheDir`), one register of runtime installs (so profiles on the same cluster account share an
 * upload), one Apptainer image preparer (sending this machine's `localImages`).
 */
export function sharedSlurmDeps(options: { cacheDir: string; localImages?: LocalImages; connect?: (profile: SlurmProfile) => ClusterConnection }): SlurmEngineDeps {
  return {
    connect: options.connect ?? ((profile) => clusterConnection(profile)),
    bundles: new RuntimeBundles(options.cacheDir),
    installs: new RuntimeInstalls(),
    apptainer: new ApptainerImages(options.localImages),
  };
}
