import { createHash } from "node:crypto";

/**
 * A stand-in for the Hugging Face hub's HTTP API, serving generated tiny repos on loopback, for
 * tests of `svc model add`. It implements exactly what model-svc's hub client uses:
 *   GET  /api/models/{owner}/{name}/revision/{rev}       model info (sha = the commit)
 *   GET  /api/models/{owner}/{name}/tree/{rev}?recursive  file list with sizes, git oids, LFS sha256 (paged by Link)
 *   GET|HEAD /{owner}/{name}/resolve/{rev}/{path}          content with Range, X-Repo-Commit and ETag;
 *                                                          LFS files redirect to /cdn/{sha256} as the hub does
 * and the hub's refusals: 401 RepoNotFound (missing or private without token), 404 RevisionNotFound,
 * 401/403 GatedRepo for a gated repo's files without / with an insufficient token.
 */

export interface FakeFile {
  path: string;
  content: Uint8Array;
  lfs: boolean;
}

export interface FakeRepo {
  id: string;
  /** commit → files */
  commits: Record<string, FakeFile[]>;
  /** branch or tag → commit */
  refs: Record<string, string>;
  /** Files need a token that has been granted access (`grantedTokens`). */
  gated?: boolean;
  /** Everything needs a granted token; without one the repo looks missing. */
  private?: boolean;
}

export interface FakeHubOptions {
  repos: FakeRepo[];
  /** Tokens that may read private and gated repos. */
  grantedTokens?: string[];
  /** Entries per page of the tree listing. */
  treePageSize?: number;
}

export interface HubRequest {
  method: string;
  path: string;
  range: string | null;
  authorization: string | null;
}

export interface FakeHub {
  url: string;
  requests: HubRequest[];
  /** Bytes of file contents sent so far, by path. */
  bytesSent: Map<string, number>;
  /** The next download of `path` sends `afterBytes` bytes of the body and then drops the connection. */
  cutNext(path: string, afterBytes: number): void;
  /** The next download of `path` sends `afterBytes` bytes of the body and then nothing more, keeping the connection open. */
  stallNext(path: string, afterBytes: number): void;
  /** The next download of `path` sends the right number of bytes with one of them wrong. */
  corruptNext(path: string): void;
  stop(): void;
}

export const gitOid = (content: Uint8Array) => createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
const sha256Cache = new WeakMap<Uint8Array, string>();
export function sha256(content: Uint8Array): string {
  let hex = sha256Cache.get(content);
  if (!hex) sha256Cache.set(content, (hex = createHash("sha256").update(content).digest("hex")));
  return hex;
}

function pointer(content: Uint8Array): Uint8Array {
  return Buffer.from(`version git-lfs-pointer-v1\noid sha256:${sha256(content)}\nsize ${content.length}\n`);
}

/** Deterministic pseudo-random bytes. */
export function bytes(size: number, seed = 1): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

export const commitFor = (seed: string) => createHash("sha1").update(`fake-hub:${seed}`).digest("hex");

/** A tiny repo of one kind at one commit on `main`, plus extra files. */
export function tinyRepo(
  id: string,
  kind: "causal-lm" | "whisper" | "unknown",
  options: { extra?: FakeFile[]; commitSeed?: string; gated?: boolean; private?: boolean; branch?: string } = {},
): FakeRepo {
  const architectures = kind === "causal-lm" ? ["LlamaForCausalLM"] : kind === "whisper" ? ["WhisperForConditionalGeneration"] : ["BertModel"];
  const files: FakeFile[] = [
    { path: "config.json", content: Buffer.from(JSON.stringify({ architectures, hidden_size: 8 })), lfs: false },
    { path: "README.md", content: Buffer.from(`---\nlicense: mit\n---\n# ${id}\n`), lfs: false },
    { path: "model.safetensors", content: bytes(4096, id.length), lfs: true },
    ...(options.extra ?? []),
  ];
  const commit = commitFor(options.commitSeed ?? id);
  return { id, commits: { [commit]: files }, refs: { [options.branch ?? "main"]: commit }, gated: options.gated, private: options.private };
}

export function startFakeHub(options: FakeHubOptions): FakeHub {
  const granted = new Set(options.grantedTokens ?? []);
  const pageSize = options.treePageSize ?? 1000;
  const requests: HubRequest[] = [];
  const bytesSent = new Map<string, number>();
  const cuts = new Map<string, number>();
  const stalls = new Map<string, number>();
  const corrupt = new Set<string>();
  // Stalled answers wait on this until the hub stops.
  let endStalls!: () => void;
  const stopped = new Promise<void>((resolve) => (endStalls = resolve));

  const error = (status: number, code: string, message: string) =>
    new Response(JSON.stringify({ error: message }), { status, headers: { "x-error-code": code, "x-error-message": message, "content-type": "application/json" } });

  const find = (id: string, auth: string | null) => {
    const repo = options.repos.find((r) => r.id === id);
    const token = auth?.replace(/^Bearer /, "") ?? "";
    if (!repo || (repo.private && !granted.has(token))) {
      return { response: error(auth ? 404 : 401, "RepoNotFound", "Repository not found") };
    }
    return { repo, token };
  };
  const resolveRev = (repo: FakeRepo, rev: string) => (repo.commits[rev] ? rev : repo.refs[rev]);

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 30,
    fetch(request): Response {
      const url = new URL(request.url);
      const auth = request.headers.get("authorization");
      requests.push({ method: request.method, path: url.pathname + url.search, range: request.headers.get("range"), authorization: auth });
      const parts = url.pathname.split("/").slice(1).map(decodeURIComponent);

      if (parts[0] === "cdn" && parts[1]) {
        for (const repo of options.repos)
          for (const files of Object.values(repo.commits))
            for (const file of files) if (file.lfs && sha256(file.content) === parts[1]) return serveContent(request, file, "", sha256(file.content));
        return error(404, "EntryNotFound", "no such object");
      }

      if (parts[0] === "api" && parts[1] === "models") {
        const [, , owner, name, what, rev] = parts;
        const found = find(`${owner}/${name}`, auth);
        if ("response" in found) return found.response!;
        const commit = resolveRev(found.repo, rev ?? "");
        if (!commit) return error(404, "RevisionNotFound", `Invalid rev id: ${rev}`);
        const files = found.repo.commits[commit];
        if (what === "revision") {
          return Response.json({ id: found.repo.id, sha: commit, siblings: files.map((f) => ({ rfilename: f.path })), gated: found.repo.gated ? "manual" : false });
        }
        if (what === "tree") {
          const entries = files.map((f) => ({
            type: "file",
            path: f.path,
            size: f.content.length,
            oid: gitOid(f.lfs ? pointer(f.content) : f.content),
            ...(f.lfs ? { lfs: { oid: sha256(f.content), size: f.content.length, pointerSize: pointer(f.content).length } } : {}),
          }));
          const start = Number(url.searchParams.get("cursor") ?? 0);
          const page = entries.slice(start, start + pageSize);
          const headers: Record<string, string> = {};
          if (start + pageSize < entries.length) {
            const next = new URL(url);
            next.searchParams.set("cursor", String(start + pageSize));
            headers.link = `<${next.toString()}>; rel="next"`;
          }
          return Response.json(page, { headers });
        }
        return error(404, "EntryNotFound", "unknown API route");
      }

      // /{owner}/{name}/resolve/{rev}/{path…}
      if (parts[2] === "resolve" && parts.length >= 5) {
        const found = find(`${parts[0]}/${parts[1]}`, auth);
        if ("response" in found) return found.response!;
        const commit = resolveRev(found.repo, parts[3]);
        if (!commit) return error(404, "RevisionNotFound", `Invalid rev id: ${parts[3]}`);
        if (found.repo.gated && !granted.has(found.token)) {
          return error(auth ? 403 : 401, "GatedRepo", `Access to model ${found.repo.id} is restricted. You must have access to it and be authenticated to access it.`);
        }
        const path = parts.slice(4).join("/");
        const file = found.repo.commits[commit].find((f) => f.path === path);
        if (!file) return error(404, "EntryNotFound", `${path} does not exist`);
        if (file.lfs) {
          return new Response(null, {
            status: 302,
            headers: { location: `/cdn/${sha256(file.content)}`, "x-repo-commit": commit, "x-linked-etag": `"${sha256(file.content)}"`, "x-linked-size": String(file.content.length) },
          });
        }
        return serveContent(request, file, commit, gitOid(file.content));
      }
      return error(404, "EntryNotFound", "not a hub route");
    },
  });

  function serveContent(request: Request, file: FakeFile, commit: string, etag: string): Response {
    const total = file.content.length;
    let start = 0;
    const range = request.headers.get("range");
    const match = range ? /^bytes=(\d+)-$/.exec(range) : null;
    if (match) start = Number(match[1]);
    if (start > total) return new Response(null, { status: 416, headers: { "content-range": `bytes */${total}` } });
    const headers: Record<string, string> = { etag: `"${etag}"`, "accept-ranges": "bytes", "content-length": String(total - start) };
    if (commit) headers["x-repo-commit"] = commit;
    if (match) headers["content-range"] = `bytes ${start}-${total - 1}/${total}`;
    const status = match ? 206 : 200;
    if (request.method === "HEAD") return new Response(null, { status, headers });
    let body = file.content.subarray(start);
    if (corrupt.delete(file.path) && body.length > 0) {
      body = Uint8Array.from(body);
      body[body.length - 1] ^= 0xff;
    }
    const count = (n: number) => bytesSent.set(file.path, (bytesSent.get(file.path) ?? 0) + n);
    // A short body: `afterBytes` of it, then the end `then` waits for (the connection is dropped
    // when the body ends short of its content-length; a stall keeps it open until the hub stops).
    const shortBody = (afterBytes: number, then: Promise<void>) => {
      const part = body.subarray(0, afterBytes);
      count(part.length);
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(part);
          await then;
          controller.close();
        },
      });
      return new Response(stream, { status, headers });
    };
    const stall = stalls.get(file.path);
    if (stall !== undefined) {
      stalls.delete(file.path);
      return shortBody(stall, stopped);
    }
    const cut = cuts.get(file.path);
    if (cut !== undefined) {
      cuts.delete(file.path);
      return shortBody(cut, Bun.sleep(50));
    }
    count(body.length);
    return new Response(Buffer.from(body), { status, headers });
  }

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    bytesSent,
    cutNext: (path, afterBytes) => cuts.set(path, afterBytes),
    stallNext: (path, afterBytes) => stalls.set(path, afterBytes),
    corruptNext: (path) => corrupt.add(path),
    stop: () => {
      endStalls();
      server.stop(true);
    },
  };
}

/** A hub that accepts connections and reads requests but never answers (not even a status line). */
export function startSilentHub(): { url: string; connections: () => number; stop: () => void } {
  let connections = 0;
  const server = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open() {
        connections++;
      },
      data() {},
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, connections: () => connections, stop: () => server.stop(true) };
}
