import { remotePathWord, shellQuote } from "@svc/ssh";
import { GGUF_HEAD_LIMIT } from "../facts/gguf";
import { FACTS_SOURCE_FILES, INDEX_READ_LIMIT, SAFETENSORS_INDEX, SAFETENSORS_READ_LIMIT } from "../facts/weight-files";
import { ADAPTER_CONFIG } from "../facts/adapter-files";
import { MAGIC_FILE, PARTIAL_MARKER_PREFIX, READ_LIMITS, type KnownFacts, type ScannedRepo, type ScannedRoot, type ScannedSnapshot } from "./types";

/**
 * The remote half of discovery: ONE POSIX sh script that walks every model folder of a slurm
 * profile and prints, framed, everything `interpretScan`/`classify` need (the folder tree with file
 * sizes, refs, each top-level config.json, README.md and adapter_config.json, the first bytes of .gguf/.bin files);
 * `parseScanOutput` turns that output into the same ScannedRoot[] the local scanner returns.
 *
 * Output framing is GNU head's: `==> NAME <==\n` CONTENT, with exactly one `\n` before every
 * header after the first. Contents are raw bytes (head -c), so nothing needs escaping. NAME is
 * `<root>`, `<status>`, `<tree>`, `<files>`, `<end>`, `<error>`, a file path `./models--…`, or one
 * of the model facts' frames `k:./models--…` and `h:./models--…` (see factsScript).
 * Needs GNU find (-printf, -readable); without it the script says so and the scan fails clearly.
 * GNU find -L recognises a symlink loop (a link to a folder it is already inside) and does not
 * follow it, so a looping snapshot ends the walk like any other (model-svc/test/symlink-loop.test.ts).
 */

/** The find expression that prunes everything discovery does not look at (blobs, .no_exist, datasets--…). */
const PRUNE =
  `\\( ! -path './*/*' ! -name 'models--*' \\) -prune -o ` +
  `\\( -path './*/*' ! -path './*/*/*' ! -name refs ! -name snapshots ! -name '${PARTIAL_MARKER_PREFIX}*' \\) -prune -o`;

const HEAD = (limit: number) => `-exec sh -c 'head -v -c ${limit} -- "$@"; printf "\\n"' sh {} +`;

/**
 * The sh that reports, per snapshot, the key of the files the model facts come from (`k:` frames:
 * names, sizes and times of config.json, the index, adapter_config.json, README.md and the top-level weight files, through cksum)
 * and, unless the registry already has facts for that key, the first bytes of the weight files
 * facts/weight-files.ts selects (`h:` frames): each safetensors file's 8-byte length and the header
 * it announces (od reads the length), or the first GGUF file's metadata (a fixed prefix) and the
 * other parts of a split GGUF. `known` is written into the script as quoted `case` patterns.
 */
function factsScript(known: KnownFacts): string {
  return `${knownFunction(known)}
headframe() { printf '==> h:%s <==\\n' "$1"; head -c "$2" -- "$1" 2>/dev/null; printf '\\n'; }
sthead() {
  f=$1; n=8
  set -- $(od -An -v -tu1 -N8 -- "$f" 2>/dev/null)
  if [ $# -eq 8 ] && [ "$6$7$8" = 000 ]; then
    n=$(( $1 + $2 * 256 + $3 * 65536 + $4 * 16777216 + $5 * 4294967296 + 8 ))
    [ "$n" -le ${SAFETENSORS_READ_LIMIT} ] || n=8
  fi
  headframe "$f" "$n"
}
heads() {
  found=
  for f in "$1"/*.safetensors; do [ -f "$f" ] || continue; found=1; [ -r "$f" ] && sthead "$f"; done
  [ -z "$found" ] || return
  for g in "$1"/*.gguf; do [ -f "$g" ] && break; done
  [ -f "$g" ] && [ -r "$g" ] || return
  case "\${g##*/}" in
    *-00001-of-[0-9][0-9][0-9][0-9][0-9].gguf)
      for f in "\${g%-00001-of-*}"-[0-9][0-9][0-9][0-9][0-9]-of-"\${g##*-of-}"; do [ -f "$f" ] && [ -r "$f" ] && headframe "$f" ${GGUF_HEAD_LIMIT}; done ;;
    *) headframe "$g" ${GGUF_HEAD_LIMIT} ;;
  esac
}
facts() {
  for s in ./models--*/snapshots/*; do
    [ -d "$s" ] && [ -r "$s" ] && [ -x "$s" ] || continue
    key=$(find -L "$s" -mindepth 1 -maxdepth 1 -type f \\( ${FACTS_SOURCE_FILES.map((name) => `-name '${name}' -o`).join(" ")} -name '*.safetensors' -o -name '*.gguf' \\) -printf '%f\\t%s\\t%T@\\n' 2>/dev/null | sort | cksum)
    printf '==> k:%s <==\\n%s\\n' "$s" "$key"
    known "$1/\${s#./} $key" "\${s##*/}" || heads "$s"
  done
}`;
}

/**
 * `known "<folder> <key>" <snapshot name>`: true when the registry holds facts for that key. Its
 * quoted patterns are grouped by the snapshot name's first two characters (commit ids: 256 groups),
 * so that dash, which tries a case's patterns one by one, looks through a few of them, not all.
 */
function knownFunction(known: KnownFacts): string {
  const groups = new Map<string, string[]>();
  for (const [dir, key] of known) {
    const prefix = (dir.split("/").pop() ?? "").slice(0, 2);
    groups.set(prefix, [...(groups.get(prefix) ?? []), shellQuote(`${dir} ${key}`)]);
  }
  const branches = [...groups].map(([prefix, entries]) => `    ${shellQuote(prefix)}*) case "$1" in ${entries.join("|")}) return 0 ;; esac ;;`);
  return branches.length === 0 ? "known() { return 1; }" : `known() {\n  case "$2" in\n${branches.join("\n")}\n  esac\n  return 1\n}`;
}

export function buildScanScript(roots: string[], known: KnownFacts = new Map()): string {
  const words = roots.map((root) => remotePathWord(root.length > 1 ? root.replace(/\/+$/, "") : root)).join(" ");
  return `LC_ALL=C; export LC_ALL
frame() { printf '==> <%s> <==\\n%s\\n' "$1" "$2"; }
${factsScript(known)}
if ! find / -maxdepth 0 -printf '' >/dev/null 2>&1; then
  frame error "svc's model scan needs GNU find (findutils) on this host, which its find is not"; exit 0
fi
scan() {
  frame root "$1"
  if [ ! -e "$1" ]; then frame status missing; return; fi
  if [ ! -d "$1" ]; then frame status 'not a folder'; return; fi
  if ! cd "$1" 2>/dev/null || [ ! -r . ]; then frame status 'permission denied'; return; fi
  printf '==> <tree> <==\\n'
  find -L . -mindepth 1 ${PRUNE} \\( -type d ! -readable -printf 'U\\t%P\\n' -prune \\) -o \\( -type d ! -executable -printf 'U\\t%P\\n' -prune \\) -o -printf 'E\\t%y\\t%s\\t%P\\n' 2>/dev/null
  printf '\\n==> <files> <==\\n\\n'
  find -L . -mindepth 3 ${PRUNE} -type f -readable \\( \\
    \\( -path './models--*/refs/*' ${HEAD(256)} \\) , \\
    \\( -path './models--*/snapshots/*/config.json' ! -path './*/*/*/*/*' ${HEAD(READ_LIMITS.config)} \\) , \\
    \\( -path './models--*/snapshots/*/README.md' ! -path './*/*/*/*/*' ${HEAD(READ_LIMITS.readme)} \\) , \\
    \\( -path './models--*/snapshots/*/${ADAPTER_CONFIG}' ! -path './*/*/*/*/*' ${HEAD(READ_LIMITS.config)} \\) , \\
    \\( -path './models--*/snapshots/*/${SAFETENSORS_INDEX}' ! -path './*/*/*/*/*' ${HEAD(INDEX_READ_LIMIT)} \\) , \\
    \\( -path './models--*/snapshots/*' \\( -iname '*.gguf' -o -iname '*.bin' \\) ${HEAD(READ_LIMITS.magic)} \\) \\) 2>/dev/null
  facts "$1"
}
for root in ${words}; do (scan "$root"); done
printf '==> <end> <==\\n\\n'
`;
}

interface Frame {
  name: string;
  content: Buffer;
}

const HEADER_START = Buffer.from("==> ");
const HEADER_END = " <==\n";

/** Splits head-framed output into frames (see the module comment). */
export function splitFrames(output: Buffer): Frame[] {
  const headers: { name: string; start: number; end: number }[] = [];
  let pos = 0;
  while (pos < output.length) {
    const at = output.indexOf(HEADER_START, pos);
    if (at < 0) break;
    if (at === 0 || output[at - 1] === 0x0a) {
      const lineEnd = output.indexOf(0x0a, at);
      if (lineEnd < 0) break;
      const line = output.toString("utf8", at, lineEnd + 1);
      if (line.endsWith(HEADER_END)) {
        const name = line.slice(4, -HEADER_END.length);
        if (/^<[a-z]+>$/.test(name) || /^([hk]:)?\.\/models--/.test(name)) {
          headers.push({ name, start: at, end: lineEnd + 1 });
          pos = lineEnd + 1;
          continue;
        }
      }
    }
    pos = at + HEADER_START.length;
  }
  return headers.map((header, i) => {
    const next = headers[i + 1];
    // Every header after the first is preceded by exactly one separating newline.
    const stop = next ? next.start - 1 : output.length;
    return { name: header.name, content: output.subarray(header.end, Math.max(header.end, stop)) };
  });
}

export class RemoteScanError extends Error {
  override name = "RemoteScanError";
}

/** Parses the script's output into what the local scanner would have returned for the same folders. */
export function parseScanOutput(output: Buffer, known: KnownFacts = new Map()): ScannedRoot[] {
  const frames = splitFrames(output);
  const error = frames.find((f) => f.name === "<error>");
  if (error) throw new RemoteScanError(error.content.toString("utf8").trim());
  if (!frames.some((f) => f.name === "<end>")) throw new RemoteScanError("the remote scan stopped before its end (output cut short)");

  const roots: ScannedRoot[] = [];
  let current: { root: ScannedRoot; repos: Map<string, ScannedRepo>; snapshots: Map<string, ScannedSnapshot> } | undefined;
  const repoOf = (folder: string) => current?.repos.get(folder);
  const snapshotOf = (folder: string, name: string) => current?.snapshots.get(`${folder}/${name}`);

  for (const frame of frames) {
    if (frame.name === "<root>") {
      const root: ScannedRoot = { root: frame.content.toString("utf8"), repos: [] };
      roots.push(root);
      current = { root, repos: new Map(), snapshots: new Map() };
    } else if (frame.name === "<status>" && current) {
      current.root.problem = frame.content.toString("utf8");
    } else if (frame.name === "<tree>" && current) {
      parseTree(frame.content.toString("utf8"), current);
    } else if (/^[hk]:\.\//.test(frame.name) && current) {
      const [folder, kind, name, ...rest] = frame.name.slice(4).split("/");
      const snapshot = kind === "snapshots" ? snapshotOf(folder, name) : undefined;
      if (!snapshot) continue;
      if (frame.name.startsWith("k:")) {
        snapshot.facts.factsKey = frame.content.toString("utf8").trim();
        if (known.get(snapshot.path) === snapshot.facts.factsKey) snapshot.facts.factsCached = true;
      } else (snapshot.facts.heads ??= {})[rest.join("/")] = frame.content;
    } else if (frame.name.startsWith("./") && current) {
      const parts = frame.name.slice(2).split("/");
      const [folder, kind] = parts;
      const repo = repoOf(folder);
      if (!repo) continue;
      if (kind === "refs") {
        repo.refs[parts.slice(2).join("/")] = frame.content.toString("utf8").trim();
      } else if (kind === "snapshots" && parts.length >= 4) {
        const snapshot = snapshotOf(folder, parts[2]);
        if (!snapshot) continue;
        const rel = parts.slice(3).join("/");
        if (rel === "config.json") snapshot.facts.config = frame.content.toString("utf8");
        else if (rel === "README.md") snapshot.facts.readme = frame.content.toString("utf8");
        else if (rel === SAFETENSORS_INDEX) snapshot.facts.index = frame.content.toString("utf8");
        else if (rel === ADAPTER_CONFIG) snapshot.facts.adapterConfig = frame.content.toString("utf8");
        if (MAGIC_FILE.test(rel) && frame.content.length <= READ_LIMITS.magic) snapshot.facts.magics[rel] = frame.content.toString("hex");
      }
    }
  }
  return roots;
}

function parseTree(text: string, current: { root: ScannedRoot; repos: Map<string, ScannedRepo>; snapshots: Map<string, ScannedSnapshot> }) {
  const base = current.root.root.replace(/\/+$/, "");
  const join = (...parts: string[]) => [base, ...parts].join("/");
  const repoFor = (folder: string) => {
    let repo = current.repos.get(folder);
    if (!repo) {
      repo = { folder, path: join(folder), refs: {}, snapshots: [], partial: [], fileLists: {} };
      current.repos.set(folder, repo);
      current.root.repos.push(repo);
    }
    return repo;
  };
  const snapshotFor = (repo: ScannedRepo, name: string) => {
    const key = `${repo.folder}/${name}`;
    let snapshot = current.snapshots.get(key);
    if (!snapshot) {
      snapshot = { name, path: join(repo.folder, "snapshots", name), facts: { files: [], magics: {} } };
      current.snapshots.set(key, snapshot);
      repo.snapshots.push(snapshot);
    }
    return snapshot;
  };
  for (const line of text.split("\n")) {
    if (!line) continue;
    const fields = line.split("\t");
    let type: string;
    let size = 0;
    let path: string;
    if (fields[0] === "U" && fields.length >= 2) {
      type = "U";
      path = fields.slice(1).join("\t");
    } else if (fields[0] === "E" && fields.length >= 4) {
      type = fields[1];
      size = Number(fields[2]) || 0;
      path = fields.slice(3).join("\t");
    } else continue;
    const parts = path.split("/");
    const [folder, kind, name] = parts;
    if (parts.length === 1) {
      if (type === "d") repoFor(folder);
      else if (type === "U") repoFor(folder).problem = "permission denied";
      continue;
    }
    const repo = current.repos.get(folder);
    if (!repo) continue;
    if (parts.length === 2) {
      if (kind.startsWith(PARTIAL_MARKER_PREFIX)) repo.partial.push(kind.slice(PARTIAL_MARKER_PREFIX.length));
      else if (kind === "snapshots" && type === "U") repo.problem = "snapshots/: permission denied";
      continue;
    }
    if (kind !== "snapshots") continue;
    if (parts.length === 3) {
      if (type === "d") snapshotFor(repo, name);
      else if (type === "U") snapshotFor(repo, name).problem ??= ".: permission denied";
      continue;
    }
    const snapshot = current.snapshots.get(`${folder}/${name}`);
    if (!snapshot) continue;
    const rel = parts.slice(3).join("/");
    if (type === "U") snapshot.problem ??= `${rel}: permission denied`;
    else if (type === "l") snapshot.facts.files.push({ path: rel, size, broken: true });
    else if (type !== "d") snapshot.facts.files.push({ path: rel, size });
  }
}
