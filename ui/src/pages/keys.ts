import { limitsSummary, type ApiKey, type CreatedKey, type OutsideEndpoint } from "@svc/contracts";
import { html, type SafeHtml } from "../html";
import { layout } from "../layout";
import { keyValues, policyFields, type KeyFormValues } from "./key-policy-fields";
import { outsideEndpointsSection } from "./outside-endpoints";

export type { KeyFormValues } from "./key-policy-fields";

export const KEYS_PATH = "/keys";
/** Where a key's edit form is posted. */
export const keyUpdatePath = (id: string) => `${KEYS_PATH}/${encodeURIComponent(id)}/update`;

/** A key's edit form, as shown: the key, what was typed (after a refusal) and why it was refused. */
export interface KeyEdit {
  key: ApiKey;
  values?: KeyFormValues;
  error?: string;
}

const STYLE = html`<style>
  .new-key { background: #dcf3e5; padding: .75rem 1rem; border-radius: 6px; }
  .new-key code { font-size: 1.05rem; user-select: all; word-break: break-all; }
  .hint { color: var(--muted); font-size: .9rem; margin: .2rem 0 0; }
  .inline { display: inline; }
  .danger { background: var(--bad); border-color: var(--bad); }
  .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: .5rem 1rem; align-items: end; }
  .grid select { width: 100%; padding: .5rem .6rem; border: 1px solid var(--line); border-radius: 6px; font: inherit; }
</style>`;

function editSection({ key, values = keyValues(key), error }: KeyEdit): SafeHtml {
  return html`<section class="card" id="edit-key">
    <h2>Change the key ${key.name}</h2>
    ${error ? html`<p class="error" role="alert" id="edit-error">${error}</p>` : ""}
    <form method="post" action="${keyUpdatePath(key.id)}">
      <label for="e-models">Models</label>
      <input id="e-models" name="models" value="${values.models ?? ""}" autocomplete="off" />
      <p class="hint">Repo ids it may use, comma-separated; empty: every model.</p>
      <label for="e-expires">Expires</label>
      <input id="e-expires" name="expires" value="${values.expires ?? ""}" autocomplete="off" />
      <p class="hint">Empty: as it is (${key.expiresAt ?? "never"}); a duration (30d, 12h, 90m, 2w), a date such as 2027-01-31, or never.</p>
      ${policyFields(values, "e")}
      <button type="submit">Save</button> <a href="${KEYS_PATH}">Cancel</a>
    </form>
  </section>`;
}

/**
 * API keys for the OpenAI endpoint /v1: the list (never the keys) with each key's limits and tier,
 * a form to create one (the new key is shown on the page that answers it, once), an edit form for
 * the key chosen (`edit`) and a remove button per key; then the outside endpoints these keys reach.
 */
export function keysPage(options: { keys: ApiKey[]; endpoints?: OutsideEndpoint[]; session: boolean; created?: CreatedKey; values?: KeyFormValues; error?: string; notice?: string; edit?: KeyEdit }): string {
  const { keys, values = {} } = options;
  return layout(
    { title: "API keys", current: KEYS_PATH, session: options.session },
    html`${STYLE}<h1>API keys</h1>
      <p>Keys for the OpenAI endpoint <code>/v1</code> of this application: give one to a person or a program, with base URL
        <code>&lt;this address&gt;/v1</code>; the request's <code>model</code> picks the service. svc keeps only a hash of each key.</p>
      ${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ""}
      ${options.created
        ? html`<section class="new-key" role="status" aria-live="polite">
            <p>Key <strong>${options.created.name}</strong>: copy it now, it is not shown again.</p>
            <p><code id="new-key">${options.created.key}</code></p>
          </section>`
        : ""}
      <section class="card">
        ${keys.length === 0
          ? html`<p>No API keys yet.</p>`
          : html`<table>
              <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Models</th><th scope="col">Limits</th><th scope="col">Tier</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col"></th></tr></thead>
              <tbody>
                ${keys.map(
                  (key) => html`<tr>
                    <td>${key.name}</td>
                    <td><code>${key.prefix}…</code></td>
                    <td>${key.models ? key.models.join(", ") : "every model"}</td>
                    <td>${limitsSummary(key.limits)}</td>
                    <td>${key.tier}${key.weight === 1 ? "" : html` (weight ${key.weight})`}</td>
                    <td>${key.createdAt.slice(0, 16).replace("T", " ")}</td>
                    <td>${key.expired ? html`<strong>expired</strong>` : key.expiresAt ? key.expiresAt.slice(0, 16).replace("T", " ") : "never"}</td>
                    <td>${key.lastUsedAt ? key.lastUsedAt.slice(0, 16).replace("T", " ") : "never"}</td>
                    <td><a href="${KEYS_PATH}?edit=${encodeURIComponent(key.id)}#edit-key" aria-label="Change the key ${key.name}">Edit</a>
                      <form class="inline" method="post" action="${KEYS_PATH}/${encodeURIComponent(key.id)}/remove"><button type="submit" class="danger" aria-label="Remove the key ${key.name}">Remove</button></form></td>
                  </tr>`,
                )}
              </tbody>
            </table>`}
      </section>
      ${options.edit ? editSection(options.edit) : ""}
      <section class="card">
        <h2>Create a key</h2>
        ${options.error ? html`<p class="error" role="alert" id="form-error">${options.error}</p>` : ""}
        <form method="post" action="${KEYS_PATH}">
          <label for="f-name">Name</label>
          <input id="f-name" name="name" required value="${values.name ?? ""}" autocomplete="off" />
          <p class="hint">Who or what it is for, e.g. alice; unique.</p>
          <label for="f-models">Models</label>
          <input id="f-models" name="models" value="${values.models ?? ""}" autocomplete="off" />
          <p class="hint">Repo ids it may use, comma-separated (owner/a, owner/b); empty: every model.</p>
          <label for="f-expires">Expires</label>
          <input id="f-expires" name="expires" value="${values.expires ?? ""}" autocomplete="off" />
          <p class="hint">30d, 12h, 90m, 2w, or a date such as 2027-01-31; empty: never.</p>
          ${policyFields(values, "f")}
          <button type="submit">Create key</button>
        </form>
      </section>
      ${options.endpoints ? outsideEndpointsSection(options.endpoints) : ""}`,
  );
}
