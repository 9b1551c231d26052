export { freePort, portInUse } from "./free-port";
export { hasStarterChannel, isListeningMessage, isUpstreamsMessage, listenOnPort, reportListening, type ListeningMessage, type UpstreamsMessage } from "./listen-report";
export { retryWhilePortTaken } from "./retry-port";
