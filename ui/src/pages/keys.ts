import type { ApiKey, CreatedKey, OutsideEndpoint } from "@svc/contracts";
import { html } from "../html";
import { layout } from "../layout";
import { outsideEndpointsSection } from "./outside-endpoints";

export const KEYS_PATH = "/keys";

export interface KeyFormValues {
  name?: string;
  models?: string;
  expires?: string;
}

const STYLE = html`<style>
  .new-key { background: #dcf3e5; padding: .75rem 1rem; border-radius: 6px; }
  .new-key code { font-size: 1.05rem; user-select: all; word-break: break-all; }
  .hint { color: var(--muted); font-size: .9rem; margin: .2rem 0 0; }
  .inline { display: inline; }
  .danger { background: var(--bad); border-color: var(--bad); }
</style>`;

/**
 * API keys for the OpenAI endpoint /v1: the list (never the keys), a form to create one (the new
 * key is shown on the page that answers it, once) and a remove button per key; then the outside
 * endpoints these keys reach.
 */
export function keysPage(options: { keys: ApiKey[]; endpoints?: OutsideEndpoint[]; session: boolean; created?: CreatedKey; values?: KeyFormValues; error?: string; notice?: string }): string {
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
              <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Models</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col"></th></tr></thead>
              <tbody>
                ${keys.map(
                  (key) => html`<tr>
                    <td>${key.name}</td>
                    <td><code>${key.prefix}…</code></td>
                    <td>${key.models ? key.models.join(", ") : "every model"}</td>
                    <td>${key.createdAt.slice(0, 16).replace("T", " ")}</td>
                    <td>${key.expired ? html`<strong>expired</strong>` : key.expiresAt ? key.expiresAt.slice(0, 16).replace("T", " ") : "never"}</td>
                    <td>${key.lastUsedAt ? key.lastUsedAt.slice(0, 16).replace("T", " ") : "never"}</td>
                    <td><form class="inline" method="post" action="${KEYS_PATH}/${encodeURIComponent(key.id)}/remove"><button type="submit" class="danger" aria-label="Remove the key ${key.name}">Remove</button></form></td>
                  </tr>`,
                )}
              </tbody>
            </table>`}
      </section>
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
          <button type="submit">Create key</button>
        </form>
      </section>
      ${options.endpoints ? outsideEndpointsSection(options.endpoints) : ""}`,
  );
}
