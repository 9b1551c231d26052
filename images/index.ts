/** What other packages use of the image builds: the runtime images, the file tree that goes into them, and the cluster runtime bundle made of the same tree. */
export { buildRuntimeImage, runtimeImageName, type RuntimeImage } from "./lib/runtime-image";
export { runtimeTree, type TreeEntry } from "./lib/image-tree";
export { engineArch, engineBun } from "./lib/engine-bun";
export { runtimeBundle, linuxBun, bundleArch, bundleHashScript, BUNDLE_ARCHES, BUNDLE_LAYOUT, type BundleArch, type BundleInfo, type RuntimeBundle } from "./lib/runtime-bundle";
export { NpmPackages, NpmPackageMissing, configuredRegistry, verifyIntegrity } from "./lib/npm-packages";
export { tarStream, type TarEntry } from "./lib/tar-stream";

/** The svc installation these builds read: its runtimes/ and node_modules/. */
export const SVC_ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
