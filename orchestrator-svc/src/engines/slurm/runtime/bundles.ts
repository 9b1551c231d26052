import { TASKS, type Task, type UnavailableTask } from "@svc/contracts";
import type { RuntimeBundle } from "@svc/images";
import { EngineError } from "../../engine-error";

/** A runtime bundle as the Slurm engine uses it: what to send, where its programs are, and how the cluster checks it. */
export interface Bundle {
  id: string;
  arch: string;
  tasks: string[];
  unavailable: UnavailableTask[];
  /** Size of its tar stream, uncompressed. */
  tarBytes: number;
  tar(): ReadableStream<Uint8Array>;
  /** Paths inside the bundle folder. */
  layout: { bun: string; main(task: string): string };
  /** A shell command printing the content hash of the unpacked bundle in folder `dirWord`. */
  hashScript(dirWord: string): string;
}

/** Where bundles come from: the one for a cluster's `uname -m`. */
export interface BundleSource {
  forMachine(machine: string): Promise<Bundle>;
}

/** How long a computed bundle is reused before the runtime tree is looked at again (a run renders, then submits). */
const REUSE_MS = 10_000;

/**
 * The bundles of this svc installation (images/, runtimes/ and their installed packages), made by
 * @svc/images for each architecture, with Bun's executable and foreign native modules fetched from
 * the npm registry into `cacheDir` once. An installation without images/ cannot make them.
 */
export class RuntimeBundles implements BundleSource {
  private images: Promise<typeof import("@svc/images")> | undefined;
  private packages: import("@svc/images").NpmPackages | undefined;
  private readonly recent = new Map<string, { at: number; bundle: Promise<Bundle> }>();

  constructor(
    private readonly cacheDir: string,
    private readonly tasks: readonly Task[] = TASKS,
  ) {}

  private load() {
    this.images ??= import("@svc/images").catch(() => {
      this.images = undefined;
      throw new EngineError("failed", "runtime_unavailable", "Installing the svc runtime on a cluster needs the images/ and runtimes/ folders of svc, which this installation does not have.");
    });
    return this.images;
  }

  forMachine(machine: string): Promise<Bundle> {
    const known = this.recent.get(machine);
    if (known && Date.now() - known.at < REUSE_MS) return known.bundle;
    const bundle = this.make(machine);
    this.recent.set(machine, { at: Date.now(), bundle });
    bundle.catch(() => this.recent.delete(machine));
    return bundle;
  }

  private async make(machine: string): Promise<Bundle> {
    const images = await this.load();
    const arch = images.bundleArch(machine);
    if (!arch) throw new EngineError("invalid", "runtime_unsupported_cpu", `svc has runtimes for x86_64 and aarch64 clusters; this one is ${machine}.`);
    this.packages ??= new images.NpmPackages(this.cacheDir);
    let bundle: RuntimeBundle;
    try {
      bundle = await images.runtimeBundle({ root: images.SVC_ROOT, arch, tasks: this.tasks, packages: this.packages });
    } catch (error) {
      throw new EngineError("failed", "runtime_bundle_failed", `svc could not make its runtime for ${machine}: ${(error as Error).message}`);
    }
    return {
      id: bundle.id,
      arch,
      tasks: bundle.info.tasks,
      unavailable: bundle.unavailable as UnavailableTask[],
      tarBytes: bundle.tarBytes,
      tar: () => bundle.tar(),
      layout: images.BUNDLE_LAYOUT,
      hashScript: images.bundleHashScript,
    };
  }
}
