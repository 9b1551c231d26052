import { HubError, hubErrorFor } from "./errors";
import type { HubSettings } from "./endpoint";
import { timedFetch } from "./timed-fetch";

/** A file of a repo at a commit, as the hub lists it. */
export interface HubFile {
  path: string;
  size: number;
  /** Git blob id (sha1 of `blob <size>\0<content>`): the blob's name in the cache for files not in LFS. */
  oid: string;
  /** sha256 of the content for LFS files: their blob name in the cache and their checksum. */
  lfsSha256?: string;
}

export interface HubModelInfo {
  id: string;
  /** The commit the revision resolves to. */
  sha: string;
}

interface TreeEntry {
  type: string;
  path: string;
  size: number;
  oid: string;
  lfs?: { oid: string; size: number };
}

const enc = encodeURIComponent;

/**
 * The few hub HTTP API calls `svc model add` needs: model info at a revision (→ its commit), the
 * recursive file listing at a commit (sizes, git and LFS ids), and file contents by range.
 * Repo ids and revisions must have been validated by the caller.
 */
export class HubClient {
  constructor(
    private readonly settings: HubSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  get endpoint(): string {
    return this.settings.endpoint;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { "user-agent": "svc-model-svc", ...extra };
    if (this.settings.token) headers.authorization = `Bearer ${this.settings.token}`;
    return headers;
  }

  /** One request with the hub's timeouts (see timedFetch); an error answer becomes a HubError saying what to check. */
  private async get(url: string, what: string, init: { method?: string; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
    const { connectTimeoutMs, stallTimeoutMs } = this.settings;
    const response = await timedFetch(
      url,
      { method: init.method ?? "GET", headers: this.headers(init.headers) },
      { fetchImpl: this.fetchImpl, endpoint: this.endpoint, what, connectTimeoutMs, stallTimeoutMs, signal: init.signal },
    );
    if (!response.ok && response.status !== 206) {
      await response.body?.cancel().catch(() => {});
      throw hubErrorFor(response, what, this.endpoint);
    }
    return response;
  }

  /** The answer's JSON; a stalled body stays a HubError, anything else that is not JSON is a bad answer. */
  private async readJson<T>(response: Response, what: string): Promise<T> {
    try {
      return (await response.json()) as T;
    } catch (error) {
      if (error instanceof HubError) throw error;
      throw new HubError("bad-answer", `${this.endpoint} did not answer JSON for ${what}; is HF_ENDPOINT a Hugging Face hub?`);
    }
  }

  private async json<T>(url: string, what: string): Promise<T> {
    return this.readJson<T>(await this.get(url, what, { headers: { accept: "application/json" } }), what);
  }

  /** The repo at `revision` (a branch, tag or commit): its id and the commit it resolves to. */
  async modelInfo(repo: string, revision: string): Promise<HubModelInfo> {
    const info = await this.json<Partial<HubModelInfo>>(`${this.endpoint}/api/models/${repo}/revision/${enc(revision)}`, `${repo} at revision ${revision}`);
    if (typeof info.sha !== "string" || !/^[0-9a-f]{40}$/.test(info.sha)) {
      throw new HubError("bad-answer", `${this.endpoint} did not name the commit of ${repo} at ${revision}.`);
    }
    return { id: info.id ?? repo, sha: info.sha };
  }

  /** Every file of the repo at `commit`, following the listing's pages. */
  async listFiles(repo: string, commit: string): Promise<HubFile[]> {
    const files: HubFile[] = [];
    let url: string | undefined = `${this.endpoint}/api/models/${repo}/tree/${enc(commit)}?recursive=true&expand=false`;
    while (url) {
      const what = `the file list of ${repo} at ${commit}`;
      const response = await this.get(url, what, { headers: { accept: "application/json" } });
      const entries = await this.readJson<TreeEntry[]>(response, what);
      if (!Array.isArray(entries)) throw new HubError("bad-answer", `${this.endpoint} did not answer a file list for ${repo}.`);
      for (const entry of entries) {
        if (entry.type !== "file") continue;
        files.push({ path: entry.path, size: entry.size, oid: entry.oid, ...(entry.lfs ? { lfsSha256: entry.lfs.oid } : {}) });
      }
      url = nextLink(response.headers.get("link"), this.endpoint);
    }
    return files;
  }

  /** Checks that a file can be downloaded (a gated repo refuses here) without fetching it: a HEAD request. */
  async probe(repo: string, commit: string, path: string): Promise<void> {
    const response = await this.get(this.fileUrl(repo, commit, path), repo, { method: "HEAD" });
    await response.body?.cancel().catch(() => {});
  }

  /** The file's content from byte `offset` on (206 when the hub honours the range, 200 for the whole file). */
  download(repo: string, commit: string, path: string, offset: number, signal?: AbortSignal): Promise<Response> {
    return this.get(this.fileUrl(repo, commit, path), `${path} of ${repo}`, { headers: offset > 0 ? { range: `bytes=${offset}-` } : {}, signal });
  }

  private fileUrl(repo: string, commit: string, path: string): string {
    return `${this.endpoint}/${repo}/resolve/${enc(commit)}/${path.split("/").map(enc).join("/")}`;
  }
}

/** The `rel="next"` URL of a Link header, when it stays on the hub. */
function nextLink(header: string | null, endpoint: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) {
      const url = new URL(match[1], endpoint);
      return url.origin === new URL(endpoint).origin ? url.toString() : undefined;
    }
  }
  return undefined;
}
