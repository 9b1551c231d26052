/** What other packages use of the image builds: the runtime images and the file tree that goes into them. */
export { buildRuntimeImage, runtimeImageName, type RuntimeImage } from "./lib/runtime-image";
export { runtimeTree, type TreeEntry } from "./lib/image-tree";
