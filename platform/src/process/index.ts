export { processAlive } from "./alive";
export { currentUserName } from "./user-name";
