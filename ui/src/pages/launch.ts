import { DEFAULT_SCALE_DOWN_AFTER, DEFAULT_SCALE_UP_AFTER, ROUTING_MODES, TASKS, type Model } from "@svc/contracts";
import { html, type SafeHtml } from "../html";
import { layout } from "../layout";
import { SERVICE_STYLE, SERVICES_PATH } from "./services";
import { onePerLine } from "./command-lines";

/** What the launch form holds: the submitted values, as text (checkbox: "on"). */
export interface LaunchFormValues {
  task?: string;
  model?: string;
  revision?: string;
  profile?: string;
  name?: string;
  apiKey?: string;
  time?: string;
  ntasksPerNode?: string;
  mem?: string;
  gres?: string;
  nodes?: string;
  partition?: string;
  constraint?: string;
  account?: string;
  qos?: string;
  reservation?: string;
  exclude?: string;
  nodelist?: string;
  mounts?: string;
  gracePeriod?: string;
  image?: string;
  maxInputLength?: string;
  maxTotalTokens?: string;
  sharded?: string;
  engine?: string;
  disableCustomKernels?: string;
  engineArgs?: string;
  /** LoRA adapters served on the model, one repo id per line. */
  adapters?: string;
  inputDir?: string;
  idleStop?: string;
  onDemand?: string;
  startTimeout?: string;
  renew?: string;
  renewBefore?: string;
  /** A deployment: MIN..MAX replicas, and how it scales and routes. */
  replicas?: string;
  targetInflight?: string;
  scaleUpAfter?: string;
  scaleDownAfter?: string;
  routing?: string;
}

const SCALING_FIELDS = ["replicas", "targetInflight", "scaleUpAfter", "scaleDownAfter", "routing"] as const;
const POLICY_FIELDS = ["idleStop", "onDemand", "startTimeout", "renew", "renewBefore"] as const;

/** A refused launch: the API's message, and the form field it is about when it can be told. */
export interface LaunchError {
  message: string;
  field?: keyof LaunchFormValues;
}

/** A dry run's result: the start-up script the launch would use, and a GPU launch's plan. */
export interface LaunchPreview {
  script: string;
  revision: string;
  matched: number;
  warnings: string[];
  placement?: { summary: string; reasons: string[] };
}

const STYLE = html`<style>
  .launch-form fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 1rem 0; padding: .25rem 1rem 1rem; }
  .launch-form legend { font-weight: 600; padding: 0 .3rem; }
  .launch-form select, .launch-form textarea { display: block; width: 100%; padding: .45rem .5rem; border: 1px solid var(--line); border-radius: 6px; font: inherit; }
  .launch-form .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 0 1.25rem; }
  .launch-form .grid.two { grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); gap: 0 2rem; }
  .launch-form .choices label, .launch-form label.check { display: inline-flex; gap: .4rem; align-items: center; font-weight: normal; margin-right: 1.5rem; }
  .launch-form .choices input, .launch-form label.check input { width: auto; }
  .launch-form [aria-invalid="true"] { border-color: var(--bad); }
  .launch-form:has(input[name="task"][value="text-generation"]:checked) .for-speech,
  .launch-form:has(input[name="task"][value="speech-recognition"]:checked) .for-text { display: none; }
  .field-error { color: var(--bad); margin: .25rem 0 0; font-size: .9rem; }
</style>`;

interface FieldSpec {
  key: keyof LaunchFormValues;
  label: string;
  hint?: string;
  type?: string;
  placeholder?: string;
  inputmode?: string;
}

function fieldError(error: LaunchError | undefined, key: keyof LaunchFormValues) {
  return error?.field === key ? html`<p class="field-error" id="err-${key}">${error.message}</p>` : "";
}

const invalid = (error: LaunchError | undefined, key: keyof LaunchFormValues) =>
  error?.field === key ? html`aria-invalid="true" aria-describedby="err-${key}"` : "";

function field(values: LaunchFormValues, error: LaunchError | undefined, spec: FieldSpec): SafeHtml {
  return html`<div><label for="f-${spec.key}">${spec.label}</label>
    <input id="f-${spec.key}" name="${spec.key}" type="${spec.type ?? "text"}" value="${values[spec.key] ?? ""}" placeholder="${spec.placeholder ?? ""}"
      ${spec.inputmode ? html`inputmode="${spec.inputmode}"` : ""} ${invalid(error, spec.key)} autocomplete="off" spellcheck="false" />
    ${spec.hint ? html`<p class="hint">${spec.hint}</p>` : ""}
    ${fieldError(error, spec.key)}</div>`;
}

const JOB_FIELDS: (keyof LaunchFormValues)[] = ["time", "ntasksPerNode", "mem", "gres", "nodes", "partition", "constraint", "account", "qos", "reservation", "exclude", "nodelist"];
const SERVICE_FIELDS: (keyof LaunchFormValues)[] = ["mounts", "gracePeriod", "image"];

const number = (key: keyof LaunchFormValues, label: string, hint?: string): FieldSpec => ({ key, label, hint, inputmode: "numeric" });

/** The registered adapters, with their base, as a hint to the adapters field. */
function adapterHint(models: Model[]): string {
  const adapters = [...new Set(models.filter((m) => m.adapter).map((m) => `${m.repo}${m.adapter!.base ? ` (of ${m.adapter!.base})` : ""}`))].sort();
  return adapters.length ? ` Registered: ${adapters.join(", ")}.` : "";
}

function modelSelect(models: Model[], values: LaunchFormValues, error: LaunchError | undefined): SafeHtml {
  const repos = (task: string) => [...new Set(models.filter((m) => m.image === task && !m.adapter).map((m) => m.repo))].sort();
  return html`<label for="f-model">Model</label>
    <select id="f-model" name="model" required ${invalid(error, "model")}>
      <option value="">Choose a registered model…</option>
      ${TASKS.map((task) =>
        repos(task).length
          ? html`<optgroup label="${task}">
              ${repos(task).map((repo) => html`<option value="${repo}" data-task="${task}" ${repo === values.model ? html`selected` : ""}>${repo}</option>`)}
            </optgroup>`
          : "",
      )}
    </select>
    ${fieldError(error, "model")}
    <label for="f-revision">Revision</label>
    <select id="f-revision" name="revision" ${invalid(error, "revision")}>
      <option value="">The most recent local revision</option>
      ${[...models]
        .sort((a, b) => b.seenAt.localeCompare(a.seenAt))
        .map(
          (m) => html`<option value="${m.revision}" data-repo="${m.repo}" data-profile="${m.profile}" ${m.revision === values.revision && (!values.profile || values.profile === m.profile) ? html`selected` : ""}>
            ${m.repo} @ ${m.revision.slice(0, 12)} (profile ${m.profile})</option>`,
        )}
    </select>
    <p class="hint">Pin a revision for reproducible runs; left at “most recent”, svc picks the newest one registered for the profile.</p>
    ${fieldError(error, "revision")}`;
}

export function launchPage(options: {
  models: Model[];
  profiles: string[];
  values: LaunchFormValues;
  session: boolean;
  error?: LaunchError;
  preview?: LaunchPreview;
  /** The registry could not be read (model-svc down): say so instead of an empty list. */
  modelsError?: string;
}): string {
  const { values, error, models } = options;
  const task = values.task === "speech-recognition" || values.task === "speech_recognition" ? "speech-recognition" : "text-generation";
  const profile = values.profile || (options.profiles.includes("default") ? "default" : options.profiles[0]);
  const noModels = models.length === 0;
  return layout(
    { title: "Launch a service", current: `${SERVICES_PATH}/new`, session: options.session },
    html`${SERVICE_STYLE}${STYLE}<p><a href="${SERVICES_PATH}">← Services</a></p>
      <h1>Launch a service</h1>
      ${options.modelsError ? html`<p class="error" role="alert">${options.modelsError}</p>` : ""}
      ${options.profiles.length === 0
        ? html`<p class="warning" role="status">No profiles yet: services need one to say where they run. <a href="/profiles/new?name=default">Add the default profile</a> (or run <code>svc init</code>).</p>`
        : ""}
      ${noModels && !options.modelsError
        ? html`<p class="warning" role="status">No models are registered yet: add one or refresh the registry on the <a href="/models">Models</a> page, then come back.</p>`
        : ""}
      ${error && !error.field ? html`<p class="error" role="alert" id="form-error">${error.message}</p>` : ""}
      ${error?.field ? html`<p class="error" role="alert">The service was not launched: see the message at <a href="#f-${error.field}">${error.field}</a>.</p>` : ""}
      ${options.preview ? previewCard(options.preview) : ""}
      <section class="card">
        <form class="launch-form" method="post" action="${SERVICES_PATH}/new" hx-boost="true" data-launch-form>
          <fieldset class="choices"><legend>Task</legend>
            ${TASKS.map((t) => html`<label><input type="radio" name="task" value="${t}" ${t === task ? html`checked` : ""} /> ${t}</label>`)}
          </fieldset>
          <div class="grid two">
            <div>${modelSelect(models, values, error)}</div>
            <div><label for="f-profile">Profile</label>
              ${options.profiles.length
                ? html`<select id="f-profile" name="profile" ${invalid(error, "profile")}>${options.profiles.map((p) => html`<option value="${p}" ${p === profile ? html`selected` : ""}>${p}</option>`)}</select>`
                : html`<input id="f-profile" name="profile" value="${values.profile ?? ""}" placeholder="default" />`}
              <p class="hint">Where the service runs: a local profile runs it in Docker here, a slurm profile as a job on the cluster.</p>
              ${fieldError(error, "profile")}
              ${field(values, error, { key: "name", label: "Name (optional)", hint: "1–63 letters, digits, '.', '_' or '-'. Default: svc-<number>." })}
              ${field(values, error, { key: "apiKey", label: "API key (optional)", type: "password", hint: "Callers must send Authorization: Bearer <key>. Without one, anyone on the host can use the service." })}
            </div>
          </div>
          <fieldset class="for-text"><legend>Text generation</legend>
            <div class="grid">
              ${field(values, error, number("maxInputLength", "Max input length (tokens)"))}
              ${field(values, error, number("maxTotalTokens", "Max total tokens", "Input plus output."))}
              <div><label for="f-sharded">Sharded</label>
                <select id="f-sharded" name="sharded" ${invalid(error, "sharded")}>
                  ${[["", "not set"], ["true", "true (needs 2+ GPUs)"], ["false", "false"]].map(([v, l]) => html`<option value="${v}" ${v === (values.sharded ?? "") ? html`selected` : ""}>${l}</option>`)}
                </select>${fieldError(error, "sharded")}</div>
              <div><label for="f-engine">GPU engine</label>
                <select id="f-engine" name="engine" ${invalid(error, "engine")}>
                  ${[["", "the profile's (else vLLM)"], ["vllm", "vLLM"], ["sglang", "SGLang"]].map(([v, l]) => html`<option value="${v}" ${v === (values.engine ?? "") ? html`selected` : ""}>${l}</option>`)}
                </select>${fieldError(error, "engine")}</div>
            </div>
            <label class="check"><input type="checkbox" name="disableCustomKernels" ${values.disableCustomKernels ? html`checked` : ""} /> Disable custom GPU kernels</label>
            <label for="f-adapters">LoRA adapters (optional)</label>
            <textarea id="f-adapters" name="adapters" rows="2" spellcheck="false" ${invalid(error, "adapters")}>${values.adapters ?? ""}</textarea>
            <p class="hint">One adapter repo id per line, served on the model and each a model of /v1 under its name (GGUF adapters on the CPU runtime, PEFT on vLLM/SGLang).${adapterHint(models)}</p>
            ${fieldError(error, "adapters")}
            <label for="f-engineArgs">Engine arguments (optional)</label>
            <textarea id="f-engineArgs" name="engineArgs" rows="2" spellcheck="false" ${invalid(error, "engineArgs")}>${values.engineArgs ?? ""}</textarea>
            <p class="hint">One argument per line, passed to the inference server as they are (e.g. <code>--ctx-size</code> then <code>512</code>).</p>
            ${fieldError(error, "engineArgs")}
          </fieldset>
          <fieldset class="for-speech"><legend>Speech recognition</legend>
            ${field(values, error, { key: "inputDir", label: "Input folder (optional)", hint: "Absolute folder on the service host that audio_path is read from. Default: <home>/inputs.", placeholder: "/data/audio" })}
          </fieldset>
          <details ${JOB_FIELDS.some((k) => values[k]) || (error?.field && JOB_FIELDS.includes(error.field)) ? html`open` : ""}>
            <summary>Job options (Slurm; on a local profile only memory and GPUs do something, the preview warns about the others)</summary>
            <div class="grid">
              ${field(values, error, { key: "time", label: "Time limit", placeholder: "01:30:00", hint: "Minutes, MM:SS, HH:MM:SS or D-HH:MM:SS." })}
              ${field(values, error, number("mem", "Memory (GB per node)"))}
              ${field(values, error, number("gres", "GPUs per node"))}
              ${field(values, error, number("nodes", "Nodes", "More than one: the model spans nodes (pipeline parallel)."))}
              ${field(values, error, number("ntasksPerNode", "Tasks per node"))}
              ${field(values, error, { key: "partition", label: "Partition" })}
              ${field(values, error, { key: "constraint", label: "Constraint", hint: "Node features, e.g. gpu80g&avx512." })}
              ${field(values, error, { key: "account", label: "Account", hint: "Default: the profile's account." })}
              ${field(values, error, { key: "qos", label: "QOS", hint: "Default: the profile's qos." })}
              ${field(values, error, { key: "reservation", label: "Reservation" })}
              ${field(values, error, { key: "nodelist", label: "Nodes to run on", hint: "A Slurm hostlist, e.g. node[01-04]." })}
              ${field(values, error, { key: "exclude", label: "Nodes to avoid", hint: "A Slurm hostlist." })}
            </div>
          </details>
          <details ${SERVICE_FIELDS.some((k) => values[k]) || (error?.field && SERVICE_FIELDS.includes(error.field)) ? html`open` : ""}>
            <summary>Service options (mounts, health grace period, image)</summary>
            <label for="f-mounts">Mounts (optional)</label>
            <textarea id="f-mounts" name="mounts" rows="2" spellcheck="false" ${invalid(error, "mounts")}>${values.mounts ?? ""}</textarea>
            <p class="hint">Host folders bound read-only into the service at the same path, one per line.</p>
            ${fieldError(error, "mounts")}
            <div class="grid">
              ${field(values, error, number("gracePeriod", "Grace period (seconds)", "How long it may fail its health check while starting before it counts as UNHEALTHY. Default: no limit."))}
              ${field(values, error, { key: "image", label: "Image (optional)", hint: "This service's container image instead of the app's (svc image ls)." })}
            </div>
          </details>
          <details ${POLICY_FIELDS.some((k) => values[k]) || (error?.field && (POLICY_FIELDS as readonly string[]).includes(error.field)) ? html`open` : ""}>
            <summary>Lifecycle (stop when idle, start on demand, renew before the time limit)</summary>
            <div class="grid">
              ${field(values, error, { key: "idleStop", label: "Stop when idle for", placeholder: "30m", hint: "No request for this long stops the service (30s, 30m, 2h, HH:MM:SS). Empty: the profile's default; 0: never." })}
              ${field(values, error, { key: "startTimeout", label: "Start timeout", placeholder: "15m", hint: "How long a request waits for an on-demand start." })}
              ${field(values, error, { key: "renewBefore", label: "Renew before the end", placeholder: "10m", hint: "Slurm, with a time limit and Renew." })}
            </div>
            <label class="check"><input type="checkbox" name="onDemand" ${values.onDemand ? html`checked` : ""} /> Start on demand: a request while it is stopped starts it again</label>
            <label class="check"><input type="checkbox" name="renew" ${values.renew ? html`checked` : ""} /> Renew (Slurm): hand over to a successor job before the time limit</label>
          </details>
          <details ${SCALING_FIELDS.some((k) => k !== "routing" && values[k]) || (error?.field && (SCALING_FIELDS as readonly string[]).includes(error.field)) ? html`open` : ""}>
            <summary>Replicas (a deployment that grows and shrinks with the load)</summary>
            <div class="grid">
              ${field(values, error, { key: "replicas", label: "Replicas (MIN..MAX)", placeholder: "0..3", hint: "Empty: one service. MIN 0: none runs until a request comes. Replicas are named <name>-1, <name>-2, …" })}
              ${field(values, error, number("targetInflight", "Target in flight per replica", "Above it for a while, a replica is added. Default: from the engine's concurrency."))}
              ${field(values, error, { key: "scaleUpAfter", label: "Scale up after", placeholder: DEFAULT_SCALE_UP_AFTER })}
              ${field(values, error, { key: "scaleDownAfter", label: "Scale down after", placeholder: DEFAULT_SCALE_DOWN_AFTER, hint: "A replica without a request this long is drained, then stopped." })}
              <div><label for="f-routing">Routing</label><select id="f-routing" name="routing">
                ${ROUTING_MODES.map((mode) => html`<option value="${mode}" ${mode === (values.routing || "least-busy") ? html`selected` : ""}>${mode === "prefix" ? "prefix (same long prompt prefix, same replica)" : "least-busy"}</option>`)}
              </select>${fieldError(error, "routing")}</div>
            </div>
          </details>
          <div class="actions">
            <button type="submit" name="action" value="launch">Launch</button>
            <button type="submit" name="action" value="preview" class="secondary-button">Preview the start-up script</button>
            <a href="${SERVICES_PATH}">Cancel</a>
          </div>
        </form>
      </section>`,
  );
}

/** The form's field for each `svc run` option a message may name. */
const FIELD_OF_OPTION: Record<string, string> = {
  "--revision": "Revision",
  "--profile": "Profile",
  "--name": "Name",
  "--api-key": "API key",
  "--time": "Time limit",
  "--mem": "Memory",
  "--gres": "GPUs per node",
  "--nodes": "Nodes",
  "--engine": "GPU engine",
  "--ntasks-per-node": "Tasks per node",
  "--partition": "Partition",
  "--constraint": "Constraint",
  "--account": "Account",
  "--qos": "QOS",
  "--reservation": "Reservation",
  "--exclude": "Nodes to avoid",
  "--nodelist": "Nodes to run on",
  "--mount": "Mounts",
  "--adapter": "LoRA adapters",
  "--grace-period": "Grace period",
  "--image": "Image",
  "--max-input-length": "Max input length",
  "--max-total-tokens": "Max total tokens",
  "--sharded": "Sharded",
  "--disable-custom-kernels": "Disable custom GPU kernels",
  "--input-dir": "Input folder",
  "--replicas": "Replicas",
  "--target-inflight": "Target in flight per replica",
  "--scale-up-after": "Scale up after",
  "--scale-down-after": "Scale down after",
  "--routing": "Routing",
};

/**
 * A warning of the API (written for the CLI) in the form's words: the field instead of the option
 * (engine arguments keep their names: they are typed as such).
 */
export function inFormWords(warning: string): string {
  const revision = /^No --revision given: using (\S+?)(\s\(.*\))?\. Pin it with --revision \S+ for reproducible runs\.$/.exec(warning);
  if (revision) return `No revision chosen: using ${revision[1]}${revision[2] ?? ""}. Choose it under “Revision” for reproducible runs.`;
  return warning.replace(/--[a-z][a-z-]*/g, (option) => (FIELD_OF_OPTION[option] ? `“${FIELD_OF_OPTION[option]}”` : option));
}

function previewCard(preview: LaunchPreview): SafeHtml {
  return html`<section class="card" id="preview" aria-live="polite">
    <h2>Start-up script (dry run: nothing was started)</h2>
    <p class="hint">${preview.matched} registered revision(s) matched; this would run revision <code>${preview.revision}</code>.</p>
    ${preview.warnings.map((w) => html`<p class="warning">${inFormWords(w)}</p>`)}
    ${preview.placement
      ? html`<p id="preview-plan">Plan: ${preview.placement.summary}</p>${preview.placement.reasons
          .filter((reason) => !preview.warnings.includes(reason))
          .map((reason) => html`<p class="hint">${inFormWords(reason)}</p>`)}`
      : ""}
    <pre class="block" id="preview-script">${onePerLine(preview.script)}</pre>
    <button type="button" data-copy="#preview-script" class="secondary-button">Copy</button>
  </section>`;
}
