/** svc's batch driver: runs a model over a folder or an OpenAI batch file next to the runtime, on the node. */
export { parseDriverArgs, defaultStateDir, DRIVER_TASKS, DEFAULT_EXTENSIONS, type DriverOptions, type DriverTask } from "./args";
export { runDriver, stateFiles } from "./driver";
export type { Progress, StateFile } from "./job-state";
