import { remotePathWord } from "@svc/ssh";
import { inside } from "../cluster-paths";
import type { Bundle } from "./bundles";

/**
 * The shell scripts that keep runtime bundles on a cluster, under <home>/runtime/: a version counts
 * as installed only as a folder named by its content hash, which appears by one rename after the
 * cluster itself checked that hash; uploads go to `.incoming-…` folders beside it.
 */

const VERSION = /^[0-9a-f]{16}$/;
/** <home>/runtime on the cluster. */
export const runtimeRoot = (home: string) => inside(home, "runtime");
/** The folder of one installed version. */
export const versionDir = (home: string, version: string) => `${runtimeRoot(home)}/${version}`;

function checkVersion(version: string): string {
  if (!VERSION.test(version)) throw new Error(`${JSON.stringify(version)} is not a runtime version (16 hex digits)`);
  return version;
}

/** Prints the login node's `uname -m` (`@machine …`) and `@have <version>` for each installed version. */
export function probeScript(home: string): string {
  return [
    "printf '@machine %s\\n' \"$(uname -m)\"",
    `for d in ${remotePathWord(runtimeRoot(home))}/*/bundle.json; do [ -f "$d" ] && printf '@have %s\\n' "$(basename "$(dirname "$d")")"; done`,
    "exit 0",
  ].join("\n");
}

/** What probeScript found. */
export function parseProbe(stdout: string): { machine: string; versions: string[] } {
  return {
    machine: stdout.match(/^@machine (\S+)$/m)?.[1] ?? "",
    versions: [...stdout.matchAll(/^@have ([0-9a-f]{16})$/gm)].map((match) => match[1]),
  };
}

/** Leftover uploads older than this are removed by the next install (a live one writes much faster). */
const STALE_MINUTES = 120;

/**
 * Reads a tar.gz of the bundle on standard input into a fresh `.incoming-` folder, checks its
 * content hash, and renames it to <version> only when the hash is right. Whatever happens, the
 * temporary folder goes (a cut connection ends tar with an error, and the EXIT trap removes it).
 * Prints `@installed`, or `@error <why>` and fails.
 */
export function installScript(home: string, bundle: Pick<Bundle, "id" | "hashScript" | "layout">, nonce: string): string {
  const id = checkVersion(bundle.id);
  if (!/^[0-9a-z]{1,32}$/.test(nonce)) throw new Error("bad nonce");
  const root = remotePathWord(runtimeRoot(home));
  return [
    "set -u",
    "umask 077",
    `root=${root}`,
    `final="$root/${id}"`,
    `tmp="$root/.incoming-${id}-${nonce}"`,
    `mkdir -p "$root" && mkdir "$tmp" || { echo "@error cannot create $tmp"; exit 1; }`,
    `trap 'rm -rf "$tmp" "$tmp.err"' EXIT`,
    "trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 141' PIPE",
    `find "$root" -maxdepth 1 \\( -name '.incoming-*' -mmin +${STALE_MINUTES} -o -name '.removing-*' \\) ! -name ".incoming-${id}-${nonce}" -exec rm -rf {} + 2>/dev/null`,
    `tar -xzf - -C "$tmp" 2>"$tmp.err" || { echo "@error the upload ended early or arrived damaged: $(tail -n 3 "$tmp.err" | tr '\\n' ' ')"; rm -f "$tmp.err"; exit 1; }`,
    `rm -f "$tmp.err"`,
    `got=$(${bundle.hashScript('"$tmp"')})`,
    `[ "$got" = ${id} ] || { echo "@error the files on the cluster hash to $got, not ${id}"; exit 1; }`,
    `[ -x "$tmp/${bundle.layout.bun}" ] || { echo "@error $tmp/${bundle.layout.bun} is not executable"; exit 1; }`,
    `if mv -T "$tmp" "$final" 2>/dev/null || [ -f "$final/bundle.json" ]; then echo @installed; else echo "@error could not rename $tmp to $final"; exit 1; fi`,
  ].join("\n");
}

/**
 * Lists the installed versions: `@v <version> <KiB> <epoch seconds> <bundle.json on one line>`;
 * then, for each job work folder given, the version its job script starts (`@use <folder> <version>`).
 */
export function listScript(home: string, workDirs: string[] = []): string {
  const lines = [
    `cd ${remotePathWord(runtimeRoot(home))} 2>/dev/null || exit 0`,
    "for d in *; do",
    '  case "$d" in *[!0-9a-f]*) continue;; esac',
    '  [ "${#d}" -eq 16 ] && [ -f "$d/bundle.json" ] || continue',
    `  printf '@v %s %s %s %s\\n' "$d" "$(du -sk "$d" | cut -f1)" "$(stat -c %Y "$d")" "$(tr -d '\\n' < "$d/bundle.json")"`,
    "done",
  ];
  for (const dir of workDirs) {
    const word = remotePathWord(dir);
    lines.push(`v=$(sed -n 's|.*/runtime/\\([0-9a-f]\\{16\\}\\)/bin/bun.*|\\1|p' ${word}/job.sh 2>/dev/null | head -n 1); [ -n "$v" ] && printf '@use %s %s\\n' ${shellWordForPrint(dir)} "$v"`);
  }
  lines.push("exit 0");
  return `${lines.join("\n")}\n`;
}

/** A work folder as printf prints it back (its basename: the service id). */
const shellWordForPrint = (dir: string) => `'${dir.replace(/\/+$/, "").split("/").pop()!.replace(/[^0-9a-f-]/g, "")}'`;

/** Removes versions: each is first renamed away, so a half-removed one never looks installed. */
export function removeScript(home: string, versions: string[]): string {
  const root = remotePathWord(runtimeRoot(home));
  const lines = [`cd ${root} 2>/dev/null || exit 0`];
  for (const version of versions.map(checkVersion)) {
    lines.push(`if [ -d ${version} ]; then t=.removing-${version}-$$; mv ${version} "$t" && rm -rf "$t" && echo "@removed ${version}"; fi`);
  }
  lines.push("exit 0");
  return `${lines.join("\n")}\n`;
}

export interface InstalledVersion {
  version: string;
  sizeBytes: number;
  installedAt: string;
  arch: string;
  tasks: string[];
}

/** Reads listScript's output: the versions, and which version each listed service's job starts. */
export function parseList(stdout: string): { versions: InstalledVersion[]; uses: Map<string, string> } {
  const versions: InstalledVersion[] = [];
  const uses = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const version = line.match(/^@v ([0-9a-f]{16}) (\d+) (\d+) (.*)$/);
    if (version) {
      let info: { arch?: string; tasks?: string[] } = {};
      try {
        info = JSON.parse(version[4]);
      } catch {}
      versions.push({
        version: version[1],
        sizeBytes: Number(version[2]) * 1024,
        installedAt: new Date(Number(version[3]) * 1000).toISOString(),
        arch: info.arch ?? "unknown",
        tasks: Array.isArray(info.tasks) ? info.tasks : [],
      });
    }
    const use = line.match(/^@use ([0-9a-f-]+) ([0-9a-f]{16})$/);
    if (use) uses.set(use[1], use[2]);
  }
  return { versions: versions.sort((a, b) => b.installedAt.localeCompare(a.installedAt)), uses };
}
