/**
 * How an inference server's container runs (the runtimes parse untrusted model files, so a
 * compromised one must hold no power it does not need): never as root, no capabilities, no
 * privilege gain, a bounded number of processes, and a read-only root file system whose only
 * writable place is a tmpfs at /tmp (also HOME). The Docker engine runs every service so, and the
 * runtimes' container tests run their images so too.
 */
export const RUNTIME_CONTAINER = {
  /** The user a container runs as when svc itself runs as root (otherwise svc's own user). */
  rootUserStandIn: { uid: 10001, gid: 10001 },
  capDrop: ["ALL"],
  securityOpt: ["no-new-privileges"],
  /** Processes and threads together (llama.cpp and Bun start a thread per core, and more). */
  pidsLimit: 1024,
  tmpfs: { "/tmp": "rw,nosuid,nodev,size=1g,mode=1777" },
  env: { HOME: "/tmp" },
} as const;

/** The `uid:gid` a runtime container runs as, for a svc running as `uid:gid`. */
export function runtimeContainerUser(uid: number, gid: number): string {
  return uid === 0 ? `${RUNTIME_CONTAINER.rootUserStandIn.uid}:${RUNTIME_CONTAINER.rootUserStandIn.gid}` : `${uid}:${gid}`;
}
