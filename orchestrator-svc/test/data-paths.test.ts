/** The one rule for the folders and files jobs are given (batch folders, speech input folders, --mount). */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiError } from "@svc/contracts";
import { checkDataPath, protectedPlaces, type DataPathUse } from "../src/launch/data-paths";

const root = mkdtempSync(join(tmpdir(), "svc-data-paths-"));
const svcHome = join(root, "svc-home");
const socket = join(root, "docker", "docker.sock");
const data = join(root, "data", "in");
mkdirSync(join(svcHome, "data"), { recursive: true });
mkdirSync(join(svcHome, "inputs"), { recursive: true });
mkdirSync(join(root, "docker"));
writeFileSync(socket, "");
mkdirSync(data, { recursive: true });
writeFileSync(join(data, "requests.jsonl"), "{}\n");
symlinkSync(join(svcHome, "data"), join(root, "link-to-svc-data"));
const places = protectedPlaces(svcHome, socket);

const read: DataPathUse = { option: "--input-dir", field: "inputDir", access: "read", kind: "folder", mustExist: true };
const write: DataPathUse = { option: "--output-dir", field: "outputDir", access: "write", kind: "folder", mustExist: false };
const here = (path: string, use = read) => checkDataPath(path, use, { dataPaths: "this-machine" }, places);
const onCluster = (path: string, use = read) => checkDataPath(path, use, { dataPaths: "cluster" }, places);
function refusal(check: () => unknown): ApiError {
  try {
    check();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("accepted");
}

describe("on this machine", () => {
  test("any folder svc can read is an input, outputs anywhere svc can write (made when missing)", () => {
    expect(here(data)).toBe(data);
    expect(here(join(data, "requests.jsonl"), { ...read, option: "--input", kind: "file" })).toBe(join(data, "requests.jsonl"));
    expect(here(join(root, "data", "out", "deeper"), write)).toBe(join(root, "data", "out", "deeper"));
    // svc's home holds the profiles' inputs and models: those are data like any other.
    expect(here(join(svcHome, "inputs"))).toBe(join(svcHome, "inputs"));
  });

  test("the system's folders, svc's own data and the Docker socket's folder are refused, saying why", () => {
    const cases: [string, string][] = [
      ["/", "/: it is the whole filesystem, which no job may see: give the folder of your data"],
      ["/etc", "/etc: it is in /etc, which holds the system's own files and no job may see"],
      ["/etc/ssl", "it is in /etc"],
      ["/proc", "it is in /proc"],
      ["/sys/kernel", "it is in /sys"],
      ["/dev", "it is in /dev"],
      ["/boot", "it is in /boot"],
      ["/run", "it is in /run"],
      [join(svcHome, "data"), `is in svc's own databases and keys (${join(svcHome, "data")}), which no job may see`],
      [join(root, "link-to-svc-data"), `it is ${join(svcHome, "data")}, which is in svc's own databases and keys`],
      [svcHome, "holds svc's own databases and keys"],
      [root, "holds svc's own databases and keys"],
      [join(root, "docker"), "is in the Docker socket's folder"],
    ];
    for (const [path, why] of cases) {
      const error = refusal(() => here(path));
      expect(error.status).toBe(400);
      expect(error.message).toContain(why);
      expect(error.details).toEqual({ field: "inputDir" });
    }
    expect(refusal(() => here(join(svcHome, "auth_token"), { ...read, kind: "file" })).message).toContain("svc's own token");
  });

  test("relative paths, '..', missing inputs and the wrong kind are refused with what to give", () => {
    expect(refusal(() => here("data/in")).message).toBe("--input-dir data/in: give an absolute path.");
    expect(refusal(() => here("~/data")).message).toContain("give an absolute path");
    expect(refusal(() => here(`${data}/../in`)).message).toContain("give the path without '..'");
    expect(refusal(() => here(join(root, "nope"))).message).toContain("there is no such folder on this machine");
    expect(refusal(() => here(join(data, "requests.jsonl"))).message).toContain("that is a file: give a folder");
    expect(refusal(() => here(data, { ...read, kind: "file" })).message).toContain("that is a folder: give a file");
  });
});

describe("on a cluster", () => {
  test("paths are taken as written: the user's home, ~/…, shared folders", () => {
    expect(onCluster("/home/svc/batch-in")).toBe("/home/svc/batch-in");
    expect(onCluster("~/batch-in/")).toBe("~/batch-in");
    expect(onCluster("/scratch/me//corpus", write)).toBe("/scratch/me/corpus");
    // svc's own files are on this machine, not the cluster's: a cluster path is not held to them.
    expect(onCluster(svcHome)).toBe(svcHome);
  });

  test("relative paths, '..', / and the system's folders are still refused", () => {
    expect(refusal(() => onCluster("batch-in")).message).toBe("--input-dir batch-in: give an absolute path (or ~/… in the cluster user's home).");
    expect(refusal(() => onCluster("/home/svc/../root")).message).toContain("give the path without '..'");
    expect(refusal(() => onCluster("/")).message).toContain("it is the whole filesystem");
    expect(refusal(() => onCluster("/etc/")).message).toContain("it is in /etc");
  });
});
