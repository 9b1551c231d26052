import { BATCH_TASKS, isLiveBatch, isNotedBatch, type BatchDetails, type BatchRecord, type BatchStatus } from "@svc/contracts";
import { html, type SafeHtml } from "../html";
import { layout } from "../layout";
import { SERVICE_STYLE } from "./services";

export const BATCHES_PATH = "/batches";
export const batchUrl = (id: string) => `${BATCHES_PATH}/${encodeURIComponent(id)}`;

/** What the launcher form holds, as text (what was typed comes back with an error). */
export interface BatchFormValues {
  task?: string;
  model?: string;
  profile?: string;
  name?: string;
  inputDir?: string;
  outputDir?: string;
  input?: string;
  output?: string;
  params?: string;
  inputExt?: string;
  concurrency?: string;
  idleTimeout?: string;
  time?: string;
}

const BATCH_STYLE = html`<style>
  .badge.RUNNING, .badge.COMPLETED { background: #dcf3e5; color: var(--ok); }
  .badge.SUBMITTED, .badge.PENDING, .badge.STOPPING { background: #fff1d6; color: var(--warn); }
  .badge.FAILED { background: #fde4e1; color: var(--bad); }
  .badge.STOPPED { background: #e8ebf1; color: var(--muted); }
  .bar { display: inline-block; vertical-align: middle; width: 9rem; height: .7rem; background: #e8ebf1; border-radius: 4px; overflow: hidden; margin-right: .4rem; }
  .bar span { display: block; height: 100%; background: var(--ok); }
  .bar span.failed { background: var(--bad); float: left; }
  .bar span.done { float: left; }
  .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: .5rem 1rem; }
  .failures td { white-space: normal; }
  dl.grid dt { color: var(--muted); font-size: .85rem; }
  dl.grid dd { margin: 0; overflow-wrap: anywhere; }
  #launcher select { width: 100%; padding: .45rem .5rem; border: 1px solid var(--line); border-radius: 6px; font: inherit; background: #fff; }
</style>`;

/** A bar of inputs done (green) and failed (red) out of those seen, with the counts beside it. */
export function progressBar(record: Pick<BatchRecord, "progress">): SafeHtml {
  const p = record.progress;
  if (!p) return html`<span class="hint">not started</span>`;
  const percent = (n: number) => (p.total === 0 ? 0 : Math.round((n / p.total) * 100));
  const label = `${p.done} of ${p.total} done${p.failed ? `, ${p.failed} failed` : ""}`;
  return html`<span class="bar" role="progressbar" aria-valuemin="0" aria-valuemax="${p.total}" aria-valuenow="${p.done + p.failed}" aria-label="${label}"><span class="done" style="width: ${percent(p.done)}%"></span><span class="failed" style="width: ${percent(p.failed)}%"></span></span><span class="progress-text">${label}</span>`;
}

const eta = (record: BatchRecord) => {
  const s = record.progress?.etaSeconds;
  if (record.status !== "RUNNING" || s === null || s === undefined) return "—";
  return s < 60 ? `${s} s` : s < 3600 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`;
};

/** Where an ended job's outputs are (its output folder, or its results file); a live job's are still being written. */
const outputsOf = (record: BatchRecord) => {
  const where = record.output ?? record.outputDir;
  return where && !isLiveBatch(record.status) ? html`<code>${where}</code>` : "—";
};

const statusBadge = (status: BatchStatus) => html`<span class="badge ${status}">${status}</span>`;

/** The jobs' table, polled every 2 seconds (`version` as on the services page: 204 while unchanged). */
export function batchesTable(batches: BatchRecord[], options: { version: string; all: boolean; error?: string }): SafeHtml {
  const poll = `${BATCHES_PATH}/table?${new URLSearchParams({ ...(options.all ? { all: "1" } : {}), v: options.version })}`;
  return html`<div id="batches-table" hx-get="${poll}" hx-trigger="every 2s" hx-swap="outerHTML" aria-live="polite">
    ${options.error
      ? html`<p class="error" role="alert">${options.error}</p>`
      : batches.length === 0
        ? html`<p>No batch jobs${options.all ? "" : " live or ended in the last 24 h"}. Start one with the form below, or <code>svc batch run</code>.${options.all ? "" : html` <a href="${BATCHES_PATH}?all=1">Show every job, ever</a>.`}</p>`
        : html`<div class="table-wrap"><table class="services batches">
            <thead><tr><th scope="col">Batch ID</th><th scope="col">Task</th><th scope="col">Model</th><th scope="col">Status</th><th scope="col">Progress</th><th scope="col">Outputs</th>
              <th scope="col">Files/min</th><th scope="col">ETA</th><th scope="col">Allocations</th><th scope="col">Name</th><th scope="col">Profile</th></tr></thead>
            <tbody>
              ${batches.map(
                (b) => html`<tr data-batch-id="${b.id}" ${isLiveBatch(b.status) ? "" : html`class="ended"`}>
                  <td><a href="${batchUrl(b.id)}" title="${b.id}"><code>${b.id.slice(0, 13)}</code></a></td>
                  <td>${b.task}</td><td>${b.adapter ? `${b.adapter} on ${b.model}` : b.model}</td>
                  <td>${statusBadge(b.status)}${b.reason && isNotedBatch(b.status) ? html`<span class="reason">${b.reason.split("\n")[0]}</span>` : ""}</td>
                  <td>${progressBar(b)}</td><td class="outputs">${outputsOf(b)}</td>
                  <td>${b.progress ? b.progress.filesPerMinute : "—"}</td><td>${eta(b)}</td><td>${b.allocations}</td>
                  <td>${b.name}</td><td>${b.profile}</td>
                </tr>`,
              )}
            </tbody></table></div>`}
  </div>`;
}

function field(name: keyof BatchFormValues, label: string, values: BatchFormValues, error: { field?: string } | undefined, hint?: string, placeholder = ""): SafeHtml {
  const invalid = error?.field === name;
  return html`<div><label for="batch-${name}">${label}</label>
    <input id="batch-${name}" name="${name}" value="${values[name] ?? ""}" placeholder="${placeholder}" autocomplete="off" spellcheck="false" ${invalid ? html`aria-invalid="true" aria-describedby="batch-error"` : ""} />
    ${hint ? html`<p class="hint">${hint}</p>` : ""}</div>`;
}

/** The launcher: task, model, folders (or the OpenAI batch files), params and the job's limits. */
export function batchLauncher(values: BatchFormValues, models: string[], profiles: string[], error?: { message: string; field?: string }): SafeHtml {
  return html`<section class="card" id="launcher"><h2>Run a batch job</h2>
    ${error ? html`<p class="error" role="alert" id="batch-error">${error.message}</p>` : ""}
    <form method="post" action="${BATCHES_PATH}" class="grid">
      <div><label for="batch-task">Task</label><select id="batch-task" name="task">${BATCH_TASKS.map((task) => html`<option value="${task}" ${task === (values.task ?? "transcribe") ? html`selected` : ""}>${task}</option>`)}</select>
        <p class="hint">transcribe: speech-recognition models; chat, embed, openai: text-generation models.</p></div>
      <div><label for="batch-model">Model</label><input id="batch-model" name="model" list="batch-models" value="${values.model ?? ""}" required autocomplete="off" spellcheck="false" ${error?.field === "model" || error?.field === "task" ? html`aria-invalid="true"` : ""} />
        <datalist id="batch-models">${models.map((m) => html`<option value="${m}"></option>`)}</datalist></div>
      <div><label for="batch-profile">Profile</label><select id="batch-profile" name="profile">${profiles.map((p) => html`<option value="${p}" ${p === values.profile ? html`selected` : ""}>${p}</option>`)}</select></div>
      ${field("inputDir", "Input folder", values, error, "Folder tasks; on the host that runs the job.", "/data/interviews")}
      ${field("outputDir", "Output folder", values, error, undefined, "/data/transcripts")}
      ${field("input", "Requests file (openai)", values, error, "OpenAI batch JSONL.", "/data/requests.jsonl")}
      ${field("output", "Results file (openai)", values, error, undefined, "/data/results.jsonl")}
      ${field("params", "Params (JSON)", values, error, 'e.g. {"language":"en","format":"srt"} or {"prompt":"Summarise:\\n{text}"}')}
      ${field("inputExt", "Input extensions", values, error, "Comma-separated; default per task.", ".wav,.mp3")}
      ${field("concurrency", "Requests at once", values, error, undefined, "4")}
      ${field("idleTimeout", "Idle timeout (s)", values, error, "How long to wait for new inputs once all are done.", "120")}
      ${field("time", "Time limit (Slurm)", values, error, "Resubmitted until done.", "01:00:00")}
      ${field("name", "Name", values, error)}
      <div><button type="submit">Run</button></div>
    </form></section>`;
}

export function batchesPage(options: { batches: BatchRecord[]; all: boolean; version: string; session: boolean; error?: string; values: BatchFormValues; models: string[]; profiles: string[]; formError?: { message: string; field?: string }; notices?: string[] }): string {
  return layout(
    { title: "Batch jobs", current: BATCHES_PATH, session: options.session },
    html`${SERVICE_STYLE}${BATCH_STYLE}<div class="actions"><h1>Batch jobs</h1><a href="${options.all ? BATCHES_PATH : `${BATCHES_PATH}?all=1`}">${options.all ? "Live and recently ended jobs only" : "Every job, ever"}</a></div>
      ${(options.notices ?? []).map((n) => html`<p class="notice" role="status">${n}</p>`)}
      <section class="card">${batchesTable(options.batches, { version: options.version, all: options.all, error: options.error })}</section>
      ${batchLauncher(options.values, options.models, options.profiles, options.formError)}`,
  );
}

/** One job: its fields, progress, failures with reasons, each input's status, events, and stop / resume / remove. */
export function batchDetailsPage(d: BatchDetails, options: { session: boolean; notices?: string[] }): string {
  const live = isLiveBatch(d.status);
  const fields: [string, unknown][] = [
    ["Task", d.task],
    ["Model", `${d.model}@${d.revision.slice(0, 12)}`],
    ...(d.adapter ? ([["LoRA adapter", `${d.adapter} (every request names it)`]] as [string, unknown][]) : []),
    ["Profile", `${d.profile} (${d.engine})`],
    ["Input", d.input ?? d.inputDir],
    ["Output", d.output ?? d.outputDir],
    ["Params", Object.keys(d.params).length ? JSON.stringify(d.params) : "none"],
    ["Requests at once", d.concurrency],
    ["Idle timeout", `${d.idleTimeout} s`],
    ["Allocations", d.allocations],
    ["Files per minute", d.progress?.filesPerMinute ?? "—"],
    ["Created", `${d.createdAt} by ${d.createdBy}`],
  ];
  return layout(
    { title: `Batch ${d.name}`, current: BATCHES_PATH, session: options.session },
    html`${SERVICE_STYLE}${BATCH_STYLE}<p><a href="${BATCHES_PATH}?all=1">← Batch jobs</a></p>
      <h1>Batch job ${d.name}</h1>
      ${(options.notices ?? []).map((n) => html`<p class="notice" role="status">${n}</p>`)}
      <section class="card"><p>${statusBadge(d.status)} ${d.reason ? html`<span class="reason">${d.reason.split("\n")[0]}</span>` : ""}</p>
        <p>${progressBar(d)}</p>
        <dl class="grid">${fields.map(([k, v]) => html`<div><dt>${k}</dt><dd>${String(v ?? "—")}</dd></div>`)}</dl>
        <div class="actions">
          ${live ? html`<form method="post" action="${batchUrl(d.id)}/stop"><button type="submit">Stop</button></form>` : ""}
          ${live ? "" : html`<form method="post" action="${batchUrl(d.id)}/resume"><button type="submit">Resume</button></form>
            <form method="post" action="${batchUrl(d.id)}/resume"><input type="hidden" name="retryFailed" value="1" /><button type="submit" class="secondary-button">Resume, retrying failed inputs</button></form>`}
          <form method="post" action="${batchUrl(d.id)}/remove"><button type="submit" class="danger">Remove the record</button></form>
        </div></section>
      <section class="card"><h2>Failures (${d.failures.length})</h2>
        ${d.failures.length ? html`<table class="failures"><thead><tr><th scope="col">Input</th><th scope="col">Reason</th></tr></thead><tbody>${d.failures.map((f) => html`<tr><td><code>${f.path}</code></td><td>${f.reason ?? ""}</td></tr>`)}</tbody></table>` : html`<p>None.</p>`}</section>
      <section class="card"><h2>Inputs (${d.files.length})</h2>${d.filesNote ? html`<p class="hint">${d.filesNote}</p>` : ""}
        ${d.files.length ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Input</th><th scope="col">Status</th></tr></thead><tbody>${d.files.map((f) => html`<tr><td><code>${f.path}</code></td><td>${f.status}</td></tr>`)}</tbody></table></div>` : ""}</section>
      <section class="card"><h2>Events</h2><table><thead><tr><th scope="col">Time</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Reason</th></tr></thead>
        <tbody>${d.events.map((e) => html`<tr><td>${e.at}</td><td>${e.from ?? "—"}</td><td>${e.to}</td><td>${e.reason?.split("\n")[0] ?? ""}</td></tr>`)}</tbody></table></section>`,
  );
}
