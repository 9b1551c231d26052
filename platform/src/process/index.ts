export { processAlive } from "./alive";
export { readProcStat, type ProcStat } from "./proc-stat";
export { currentUserName } from "./user-name";
