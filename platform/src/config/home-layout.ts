import { joinPath as join } from "./posix-path";

/** Where things live inside SVC_HOME_DIR. One place, so no two components disagree. */
export function homeLayout(homeDir: string) {
  return {
    homeDir,
    lockFile: join(homeDir, "svc.lock"),
    tokenFile: join(homeDir, "auth_token"),
    logsDir: join(homeDir, "logs"),
    profilesFile: join(homeDir, "profiles.cfg"),
    dataDir: (component: string) => join(homeDir, "data", component),
    /** Files uploaded through the gateway's /v1/files (OpenAI batch inputs, batch outputs): read by the orchestrator to stage a batch job's input. */
    uploadsDir: join(homeDir, "data", "gateway", "files"),
    /** Downloaded things svc can fetch again (e.g. npm packages for cluster runtimes). */
    cacheDir: (kind: string) => join(homeDir, "cache", kind),
    logFile: (component: string) => join(homeDir, "logs", `${component}.log`),
  };
}
export type HomeLayout = ReturnType<typeof homeLayout>;
