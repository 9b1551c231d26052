/** Test support for the runtimes: a runtime as a local process or as a container. */
export { startRuntime, freePort, type RuntimeProcess } from "./runtime-process";
export { startRuntimeContainer, type RuntimeContainer } from "./runtime-container";
