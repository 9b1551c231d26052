import { formatBytes, formatDecimalBytes, formatParameterCount } from "@svc/contracts/format-bytes";
import { TASKS, type DownloadTask, type Model, type RefreshReport, type ScanIssue } from "@svc/contracts";
import { html, type SafeHtml } from "../html";
import { layout } from "../layout";

const CURRENT = "/models";

export interface ModelFilters {
  profile?: string;
  image?: string;
}

export interface AddFormValues {
  repo?: string;
  revision?: string;
  profile?: string;
}

export interface ModelsPageOptions {
  models: Model[];
  /** Profile names for the selects; empty when profile-svc could not be asked. */
  profiles: string[];
  filters: ModelFilters;
  session: boolean;
  /** The result of a refresh just done. */
  report?: RefreshReport;
  /** A download to follow (after the add form). */
  download?: DownloadTask;
  /** Other downloads still running. */
  running?: DownloadTask[];
  /** A failed add: the API's message and the values to show again. */
  addError?: string;
  addValues?: AddFormValues;
  /** A refresh that failed as a whole (e.g. unknown profile, service down). */
  refreshError?: string;
  /** A problem that left the table empty (e.g. model-svc down). */
  error?: string;
}

const STYLE = html`<style>
  .toolbar { display: flex; gap: 1rem; align-items: end; flex-wrap: wrap; }
  .toolbar label { margin: 0 0 .3rem; }
  .models .badge { white-space: nowrap; }
  .add-form select { display: block; min-width: 12rem; padding: .45rem .5rem; border: 1px solid var(--line); border-radius: 6px; font: inherit; }
  .toolbar select, .toolbar input { width: auto; min-width: 12rem; padding: .45rem .5rem; border: 1px solid var(--line); border-radius: 6px; font: inherit; }
  .toolbar button { margin-top: 0; }
  .models code.rev { white-space: nowrap; font-size: .8rem; font-weight: 400; color: var(--muted); }
  .models td.repo { white-space: nowrap; font-weight: 600; }
  .models td.folder { white-space: nowrap; font-size: .85rem; }
  .models th, .models td { padding: .45rem .35rem; }
  .models td.folder code { font-size: .8rem; }
  .models-wrap { overflow-x: auto; }
  .models td.folder .copy-path { margin: 0 0 0 .3rem; padding: .1rem .4rem; font-size: .8rem; }
  .models a.launch { margin: 0; padding: .25rem .7rem; white-space: nowrap; }
  .models td.num { text-align: right; white-space: nowrap; }
  .models .unknown { color: var(--muted); }
  .issues li { margin: .2rem 0; }
  .download progress { width: 100%; height: 1.1rem; }
  .download .line { display: flex; justify-content: space-between; gap: 1rem; flex-wrap: wrap; color: var(--muted); }
  .notice { background: #dcf3e5; color: var(--ok); padding: .5rem .75rem; border-radius: 6px; }
  .hint { color: var(--muted); font-size: .9rem; margin: .2rem 0 0; }
  .models .adapter-of { display: block; font-weight: 400; font-size: .85rem; white-space: normal; }
  .models .adapter-of .missing { color: var(--warn); }
</style>`;

function select(name: string, id: string, options: string[], selected: string | undefined, blank: string | undefined): SafeHtml {
  return html`<select id="${id}" name="${name}">
    ${blank !== undefined ? html`<option value="" ${!selected ? html`selected` : ""}>${blank}</option>` : ""}
    ${options.map((option) => html`<option value="${option}" ${option === selected ? html`selected` : ""}>${option}</option>`)}
  </select>`;
}

/**
 * A snapshot folder shortened for the table (the repo has its own column): `…/snapshots/3f1c2a4b…`;
 * the full path is in the title and copied by the Copy button.
 */
export function shortPath(path: string): string {
  const parts = path.split("/").filter(Boolean);
  if (parts.length <= 2) return path;
  const tail = parts.slice(-2).map((part, i, all) => (i === all.length - 1 && /^[0-9a-f]{40}$/.test(part) ? `${part.slice(0, 8)}…` : part));
  return `…/${tail.join("/")}`;
}

/** Parameters · weight bytes (dtype in the title), each "unknown" where the files do not say; one "unknown" for both. */
function modelSize(model: Model): SafeHtml {
  const unknown = html`<span class="unknown">unknown</span>`;
  const { parameters, weightBytes, dtype } = model.facts ?? {};
  if (parameters === undefined && weightBytes === undefined) return unknown;
  const params = parameters !== undefined ? formatParameterCount(parameters) : unknown;
  const weights = weightBytes !== undefined ? html`<span title="${dtype ? `weights in ${dtype}` : ""}">${formatDecimalBytes(weightBytes)}</span>` : unknown;
  return html`${params} · ${weights}`;
}

/** Under an adapter's repo: what it is an adapter of, and what is missing to serve it there. */
function adapterOf(model: Model): SafeHtml | string {
  if (!model.adapter) return "";
  const base = model.adapterBase;
  const of = model.adapter.base ? html` of <code>${model.adapter.base}</code>` : "";
  const missing = base && base.state !== "registered" ? html`<br /><span class="missing" role="note">${base.message}</span>` : "";
  return html`<span class="adapter-of"><span class="badge" title="Served on its base model (--adapter), never on its own">LoRA adapter</span> ${model.adapter.kind}${of}${missing}</span>`;
}

function modelTable(models: Model[], filters: ModelFilters): SafeHtml {
  if (models.length === 0) {
    const filtered = filters.profile || filters.image;
    return html`<p>${filtered ? "No models match these filters." : "No models registered yet: refresh to scan the profiles' model folders, or add one from the hub below."}</p>`;
  }
  return html`<div class="models-wrap"><table class="models">
    <thead><tr><th scope="col" class="repo">Repo and revision</th><th scope="col">Profile</th><th scope="col">Image</th><th scope="col" title="Parameters and bytes of the weights, from the weight files' headers">Params · weights</th><th scope="col" title="All files of the snapshot">Size</th><th scope="col">Folder</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>
      ${models.map((m, i) => {
        const launch = `/services/new?task=${encodeURIComponent(m.image)}&model=${encodeURIComponent(m.repo)}&revision=${encodeURIComponent(m.revision)}&profile=${encodeURIComponent(m.profile)}`;
        return html`<tr data-repo="${m.repo}">
          <td class="repo">${m.repo}${m.partial ? html` <span class="badge" title="Downloaded with --include/--exclude: not every file of the snapshot">partial</span>` : ""}<br /><code class="rev" title="${m.revision}">${m.revision.slice(0, 12)}</code>${adapterOf(m)}</td>
          <td>${m.profile}</td>
          <td><span class="badge">${m.image}</span>${m.facts?.vision ? html` <span class="badge" title="a vision-language model: takes images on vLLM and SGLang">vision</span>` : ""}</td>
          <td class="num">${modelSize(m)}</td>
          <td class="num">${formatBytes(m.sizeBytes)}</td>
          <td class="folder"><code id="model-dir-${i}" title="${m.modelDir}" data-full="${m.modelDir}">${shortPath(m.modelDir)}</code>
            <button type="button" class="secondary-button copy-path" data-copy="#model-dir-${i}" aria-label="Copy the folder path of ${m.repo}">Copy</button></td>
          <td>${m.adapter ? "" : html`<a class="button launch" href="${launch}" aria-label="Launch ${m.repo} (${m.revision.slice(0, 12)}, ${m.profile})">Launch</a>`}</td>
        </tr>`;
      })}
    </tbody>
  </table></div>`;
}

function issueList(issues: ScanIssue[], what: string): SafeHtml | string {
  if (issues.length === 0) return "";
  return html`<details><summary>${issues.length} ${what}</summary>
    <ul class="issues">${issues.map((i) => html`<li><code>${i.path}</code> (${i.profile}): ${i.reason}</li>`)}</ul>
  </details>`;
}

function refreshReport(report: RefreshReport): SafeHtml {
  return html`<section class="card" aria-live="polite">
    <h2>Refresh</h2>
    <ul>
      ${report.profiles.map((p) =>
        p.status === "ok"
          ? html`<li>${p.profile}: ${p.added} added, ${p.removed} removed, ${p.updated} updated, ${p.unchanged} unchanged
              <small>(${(p.durationMs / 1000).toFixed(2)} s${p.sshRoundTrips ? `, ${p.sshRoundTrips} SSH command` : ""})</small></li>`
          : html`<li class="error">${p.profile}: could not scan: ${p.error} Its models were left as they were.</li>`,
      )}
      ${report.removedForMissingProfiles ? html`<li>${report.removedForMissingProfiles} model(s) of profiles that no longer exist removed.</li>` : ""}
    </ul>
    ${issueList(report.issues.filter((i) => !i.registered), "folder(s) not registered")}
    ${issueList(report.issues.filter((i) => i.registered), "model(s) registered with incomplete facts")}
  </section>`;
}

/**
 * A download's progress. While it runs, htmx polls this fragment every second (it replaces
 * itself); without JavaScript the page reloads itself every 2 s instead (modelsPage's layout).
 */
export function downloadProgress(task: DownloadTask): SafeHtml {
  const url = `/models/downloads/${encodeURIComponent(task.id)}/progress`;
  const running = task.state === "running";
  const percent = task.bytesTotal > 0 ? Math.floor((task.bytesDone / task.bytesTotal) * 100) : 100;
  return html`<section class="card download" id="download-${task.id}" ${running ? html`hx-get="${url}" hx-trigger="every 1s" hx-swap="outerHTML"` : ""} aria-live="polite">
    <h2>Download of ${task.repo} <small>(${task.requestedRevision} → <code>${task.revision.slice(0, 12)}</code>, profile ${task.profile})</small></h2>
    <progress max="${task.bytesTotal}" value="${task.bytesDone}">${percent}%</progress>
    <p class="line"><span>${formatBytes(task.bytesDone)} of ${formatBytes(task.bytesTotal)} (${percent}%)</span><span>${task.filesDone} of ${task.filesTotal} files</span>
      ${task.bytesResumed > 0 ? html`<span>resumed with ${formatBytes(task.bytesResumed)} already here</span>` : ""}</p>
    ${task.state === "completed" && task.model
      ? html`<p class="notice">Downloaded and registered: ${task.model.repo} (${task.model.image}) in <code>${task.model.modelDir}</code>. <a href="/models">Show the table</a></p>`
      : ""}
    ${task.state === "failed" ? html`<p class="error" role="alert">${task.error?.message ?? "The download failed."}</p>` : ""}
  </section>`;
}

export function modelsPage(options: ModelsPageOptions): string {
  const { filters, profiles } = options;
  const values = options.addValues ?? {};
  const profileChoice = (name: string, id: string, selected: string | undefined, blank: string | undefined) =>
    profiles.length > 0 ? select(name, id, profiles, selected, blank) : html`<input id="${id}" name="${name}" value="${selected ?? ""}" placeholder="default" />`;
  const downloading = options.download?.state === "running" || (options.running ?? []).some((task) => task.state === "running");
  return layout(
    { title: "Models", current: CURRENT, session: options.session, ...(downloading ? { reloadWithoutScriptSeconds: 2 } : {}) },
    html`${STYLE}<h1>Models</h1>
      ${options.download ? downloadProgress(options.download) : ""}
      ${(options.running ?? []).filter((t) => t.id !== options.download?.id).map(downloadProgress)}
      ${options.report ? refreshReport(options.report) : ""}
      ${options.refreshError ? html`<p class="error" role="alert">Refresh failed: ${options.refreshError}</p>` : ""}
      <section class="card">
        <div class="toolbar">
          <form method="get" action="/models" class="toolbar" hx-boost="true" hx-target="#main" hx-select="#main" hx-swap="outerHTML">
            <div><label for="filter-profile">Profile</label>${profileChoice("profile", "filter-profile", filters.profile, "all profiles")}</div>
            <div><label for="filter-image">Image</label>${select("image", "filter-image", [...TASKS], filters.image, "all images")}</div>
            <button type="submit">Filter</button>
          </form>
          <form method="post" action="/models/refresh" hx-boost="true" hx-target="#main" hx-select="#main" hx-swap="outerHTML">
            <input type="hidden" name="profile" value="${filters.profile ?? ""}" />
            <input type="hidden" name="image" value="${filters.image ?? ""}" />
            <button type="submit" title="Scan the model folders of ${filters.profile || "every profile"} and update the database">Refresh</button>
          </form>
        </div>
        ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : modelTable(options.models, filters)}
      </section>
      <section class="card">
        <h2>Add a model from the hub</h2>
        <p class="hint">Downloads into the profile's home folder (<code>&lt;home_dir&gt;/models</code>, Hugging Face cache layout) and registers it. Local profiles only.
          Private or gated repositories need <code>HF_TOKEN</code> in the environment of <code>svc start</code>.</p>
        ${options.addError ? html`<p class="error" role="alert" id="add-error">${options.addError}</p>` : ""}
        <form method="post" action="/models/downloads" class="add-form" hx-boost="true" hx-target="#main" hx-select="#main" hx-swap="outerHTML">
          <label for="add-repo">Repository</label>
          <input id="add-repo" name="repo" required value="${values.repo ?? ""}" placeholder="owner/name" autocomplete="off" spellcheck="false"
            ${options.addError ? html`aria-describedby="add-error"` : ""} />
          <label for="add-revision">Revision (optional)</label>
          <input id="add-revision" name="revision" value="${values.revision ?? ""}" placeholder="main" autocomplete="off" spellcheck="false" />
          <label for="add-profile">Profile</label>
          ${profileChoice("profile", "add-profile", values.profile || (profiles.includes("default") ? "default" : undefined), undefined)}
          <button type="submit">Download</button>
        </form>
      </section>`,
  );
}

/** The progress fragment's answer when the task cannot be shown (unknown id, service down). */
export function downloadProblem(message: string): SafeHtml {
  return html`<section class="card download"><p class="error" role="alert">${message}</p></section>`;
}
