import type { ClusterGpus, Profile } from "@svc/contracts";
import { html, type SafeHtml } from "../html";
import { layout } from "../layout";
import { partitionsSection } from "./profile-partitions";

/** What the profile forms hold: the submitted (or current) values, as text. */
export interface ProfileFormValues {
  name?: string;
  schema?: string;
  home_dir?: string;
  cache_dir?: string;
  host?: string;
  user?: string;
  home?: string;
  cache?: string;
  port?: string;
  identity_file?: string;
  account?: string;
  partition?: string;
  qos?: string;
  gpu_memory?: string;
  /** The cluster host key fingerprint the user ticked to accept. */
  host_key_fingerprint?: string;
}

/** A failed submission: the API's message, and the field it is about when it names one. */
export interface FormError {
  message: string;
  field?: string;
  /** A host not in known_hosts yet: its key's fingerprint, for the user to check and accept. */
  newHostKey?: { name: string; fingerprint: string };
}

/** Asks, as ssh does, whether to trust a host seen for the first time; ticked, the form sends the fingerprint. */
function hostKeyConfirmation(newHostKey: FormError["newHostKey"]) {
  if (!newHostKey) return "";
  return html`<label class="confirm-host-key"><input type="checkbox" id="f-host_key_fingerprint" name="host_key_fingerprint" value="${newHostKey.fingerprint}" />
      I checked that the key of ${newHostKey.name} has the fingerprint <code>${newHostKey.fingerprint}</code>: accept it and record it in known_hosts.</label>`;
}

const CURRENT = "/profiles";
const profileUrl = (name: string) => `/profiles/${encodeURIComponent(name)}`;

/** Only the fields of the chosen schema are shown (pure CSS: forms work without JavaScript). */
const FORM_STYLE = html`<style>
  .profile-form fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 1rem 0; padding: .25rem 1rem 1rem; }
  .profile-form:has(input[name="schema"][value="local"]:checked) .for-slurm,
  .profile-form:has(input[name="schema"][value="slurm"]:checked) .for-local { display: none; }
  .profile-form .choices label { display: inline-flex; gap: .4rem; align-items: center; font-weight: normal; margin-right: 1.5rem; }
  .profile-form .choices input { width: auto; }
  .profile-form [aria-invalid="true"] { border-color: var(--bad); }
  .field-error { color: var(--bad); margin: .25rem 0 0; font-size: .9rem; }
  .hint { color: var(--muted); font-size: .9rem; margin: .2rem 0 0; }
  .notice { background: #dcf3e5; color: var(--ok); padding: .5rem .75rem; border-radius: 6px; }
  .actions { display: flex; gap: 1rem; align-items: baseline; flex-wrap: wrap; }
  .danger { background: var(--bad); border-color: var(--bad); }
</style>`;

function errorBanner(error: FormError | undefined) {
  return error ? html`<p class="error" role="alert" id="form-error">${error.message}</p>` : "";
}

function field(
  values: ProfileFormValues,
  error: FormError | undefined,
  spec: { key: keyof ProfileFormValues; label: string; hint: string; required?: boolean; type?: string; pattern?: string },
): SafeHtml {
  const id = `f-${spec.key}`;
  const invalid = error?.field === spec.key;
  return html`<label for="${id}">${spec.label}</label>
    <input id="${id}" name="${spec.key}" type="${spec.type ?? "text"}" value="${values[spec.key] ?? ""}"
      ${spec.pattern ? html`pattern="${spec.pattern}"` : ""} ${invalid ? html`aria-invalid="true" aria-describedby="form-error"` : ""} autocomplete="off" spellcheck="false" />
    <p class="hint">${spec.hint}</p>
    ${invalid ? html`<p class="field-error">${error!.message}</p>` : ""}`;
}

function attributeFields(values: ProfileFormValues, error: FormError | undefined, schemas: string[]) {
  return html`${schemas.includes("local")
      ? html`<fieldset class="for-local">
          <legend>Local profile</legend>
          ${field(values, error, { key: "home_dir", label: "Home folder (home_dir)", hint: "Absolute path (or ~/…) for model and image files; created when missing, must be writable." })}
          ${field(values, error, { key: "cache_dir", label: "Cache folder (cache_dir)", hint: "An existing folder to read shared model and image files from; never created. It may be the home folder." })}
          ${gpuMemoryField(values, error)}
        </fieldset>`
      : ""}
    ${schemas.includes("slurm")
      ? html`<fieldset class="for-slurm">
          <legend>Slurm profile</legend>
          ${field(values, error, { key: "host", label: "Host", hint: "SSH host name, address or ~/.ssh/config alias of the cluster; localhost when svc runs on the cluster itself." })}
          ${hostKeyConfirmation(error?.newHostKey)}
          ${field(values, error, { key: "user", label: "User", hint: "User name on that host; svc logs in with your SSH key (no passwords)." })}
          ${field(values, error, { key: "home", label: "Home folder on the host (home)", hint: "Absolute path or ~/…; created when missing." })}
          ${field(values, error, { key: "cache", label: "Cache folder on the host (cache)", hint: "Must exist and be readable; never created." })}
          ${field(values, error, { key: "port", label: "SSH port (optional)", hint: "Default: Port from ~/.ssh/config, else 22.", type: "number" })}
          ${field(values, error, { key: "identity_file", label: "Private key file (optional)", hint: "Default: IdentityFile from ~/.ssh/config, else ~/.ssh/id_* and ssh-agent." })}
          ${field(values, error, { key: "account", label: "Slurm account (optional)", hint: "Its jobs' account when a launch gives none." })}
          ${field(values, error, { key: "partition", label: "Partition (optional)", hint: "Its jobs' partition when a launch gives none." })}
          ${field(values, error, { key: "qos", label: "QOS (optional)", hint: "Its jobs' quality of service when a launch gives none." })}
          ${gpuMemoryField(values, error)}
        </fieldset>`
      : ""}`;
}

const gpuMemoryField = (values: ProfileFormValues, error: FormError | undefined) =>
  field(values, error, { key: "gpu_memory", label: "GPU memory (optional)", hint: "For GPU types svc's table does not know or gives the wrong size of: 80G, or per type a100:80G, mi50:32G." });

function noticeList(notices: string[]) {
  return notices.length ? html`<div role="status">${notices.map((n) => html`<p class="notice">${n}</p>`)}</div>` : "";
}

export function profilesListPage(options: { profiles: Profile[]; session: boolean; notices?: string[]; error?: string }): string {
  const { profiles } = options;
  return layout(
    { title: "Profiles", current: CURRENT, session: options.session },
    html`<div class="actions"><h1>Profiles</h1><a href="/profiles/new">Add a profile</a></div>
      ${noticeList(options.notices ?? [])}
      ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ""}
      <section class="card">
        ${profiles.length === 0
          ? html`<p>No profiles yet. Create the <strong>default</strong> profile: <a href="/profiles/new?name=default">add it here</a>, or run <code>svc init</code>.</p>`
          : html`<table>
              <thead><tr><th scope="col">Name</th><th scope="col">Schema</th><th scope="col">Where</th><th scope="col">Home</th><th scope="col">Cache</th></tr></thead>
              <tbody>
                ${profiles.map(
                  (p) => html`<tr>
                    <td><a href="${profileUrl(p.name)}">${p.name}</a></td>
                    <td>${p.schema}</td>
                    <td>${p.schema === "local" ? "this machine" : html`<code>${p.user}@${p.host}${p.port ? `:${p.port}` : ""}</code>`}</td>
                    <td><code>${p.schema === "local" ? p.home_dir : p.home}</code></td>
                    <td><code>${p.schema === "local" ? p.cache_dir : p.cache}</code></td>
                  </tr>`,
                )}
              </tbody>
            </table>`}
      </section>`,
  );
}

export function profileAddPage(options: { values: ProfileFormValues; session: boolean; error?: FormError }): string {
  const { values, error } = options;
  const schema = values.schema === "slurm" ? "slurm" : "local";
  return layout(
    { title: "Add a profile", current: CURRENT, session: options.session },
    html`${FORM_STYLE}<h1>Add a profile</h1>
      <section class="card">
        ${errorBanner(error)}
        <form class="profile-form" method="post" action="/profiles" hx-boost="true">
          ${field(values, error, {
            key: "name",
            label: "Name",
            hint: "Letters, digits, '.', '_' or '-'. The first profile must be named default.",
            pattern: "[A-Za-z0-9][A-Za-z0-9._\\-]{0,62}",
          })}
          <fieldset class="choices"${error?.field === "schema" ? html` aria-invalid="true"` : ""}>
            <legend>Schema</legend>
            <label><input type="radio" name="schema" value="local" ${schema === "local" ? html`checked` : ""} /> local — run on this machine</label>
            <label><input type="radio" name="schema" value="slurm" ${schema === "slurm" ? html`checked` : ""} /> slurm — run as Slurm jobs over SSH</label>
          </fieldset>
          ${attributeFields(values, error, ["local", "slurm"])}
          <div class="actions"><button type="submit">Create profile</button><a href="/profiles">Cancel</a></div>
        </form>
      </section>`,
  );
}

export function profileDetailPage(options: { profile: Profile; values?: ProfileFormValues; session: boolean; notices?: string[]; error?: FormError; gpus?: ClusterGpus | { error: string } }): string {
  const { profile, error } = options;
  const values: ProfileFormValues = options.values ?? { ...(profile as unknown as ProfileFormValues), port: profile.schema === "slurm" && profile.port ? String(profile.port) : "" };
  const facts: Array<[string, string | number | undefined]> =
    profile.schema === "local"
      ? [["home_dir", profile.home_dir], ["cache_dir", profile.cache_dir]]
      : [["host", profile.host], ["user", profile.user], ["home", profile.home], ["cache", profile.cache], ["port", profile.port], ["identity_file", profile.identity_file], ["account", profile.account], ["partition", profile.partition], ["qos", profile.qos]];
  facts.push(["gpu_memory", profile.gpu_memory]);
  return layout(
    { title: `Profile ${profile.name}`, current: CURRENT, session: options.session },
    html`${FORM_STYLE}<p><a href="/profiles">← Profiles</a></p>
      <h1>Profile ${profile.name} <span class="badge">${profile.schema}</span></h1>
      ${noticeList(options.notices ?? [])}
      <section class="card">
        <h2>Details</h2>
        <dl class="facts">
          ${facts.filter(([, v]) => v !== undefined).map(([k, v]) => html`<dt>${k}</dt><dd><code>${v}</code></dd>`)}
        </dl>
      </section>
      ${options.gpus ? partitionsSection(options.gpus) : ""}
      <section class="card">
        <h2>Update</h2>
        <p class="hint">Name and schema cannot change. Saving runs the checks again${profile.schema === "slurm" ? " (over SSH)" : ""}.</p>
        ${errorBanner(error)}
        <form class="profile-form" method="post" action="${profileUrl(profile.name)}" hx-boost="true">
          <input type="hidden" name="schema" value="${profile.schema}" />
          ${attributeFields(values, error, [profile.schema])}
          <div class="actions"><button type="submit">Save changes</button></div>
        </form>
      </section>
      <section class="card">
        <h2>Remove</h2>
        ${profile.name === "default"
          ? html`<p>The default profile is required and cannot be removed; change it above instead.</p>`
          : html`<p><a href="${profileUrl(profile.name)}/remove">Remove this profile…</a></p>`}
      </section>`,
  );
}

export function profileRemovePage(options: { profile: Profile; session: boolean; error?: string }): string {
  const { profile } = options;
  return layout(
    { title: `Remove ${profile.name}`, current: CURRENT, session: options.session },
    html`<section class="card narrow">
      <h1>Remove profile ${profile.name}?</h1>
      ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ""}
      <p>This deletes the <strong>${profile.schema}</strong> profile <strong>${profile.name}</strong> from profiles.cfg. Its folders and files stay where they are.</p>
      <form method="post" action="${profileUrl(profile.name)}/remove" hx-boost="true">
        <div class="actions">
          <button type="submit" class="danger">Remove ${profile.name}</button>
          <a href="${profileUrl(profile.name)}">Keep it</a>
        </div>
      </form>
    </section>`,
  );
}

/** A page for when the profiles cannot be shown at all (a broken profiles.cfg, a service down). */
export function profilesErrorPage(options: { title: string; message: string; session: boolean }): string {
  return layout(
    { title: options.title, current: CURRENT, session: options.session },
    html`<h1>${options.title}</h1><section class="card"><p class="error" role="alert">${options.message}</p><p><a href="/profiles">Back to profiles</a></p></section>`,
  );
}
