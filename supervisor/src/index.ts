export { startApp, StartError, type Output } from "./supervisor";
export { AlreadyRunningError, readRunRecord, type RunRecord } from "./lock";
