import type { ServiceRecord } from "@svc/contracts";
import { html, type SafeHtml } from "../html";
import { layout } from "../layout";
import { SERVICE_STYLE, serviceUrl, statusBadge } from "./services";

export const PLAYGROUND_PATH = "/playground";

/** What the playground forms hold (the API key is never sent back into the page). */
export interface PlaygroundValues {
  message?: string;
  system?: string;
  maxTokens?: string;
  temperature?: string;
  audioPath?: string;
}

/** The answer of a form posted without JavaScript (the page then shows it). */
export type PlaygroundResult = { kind: "chat"; prompt: string; answer: string } | { kind: "transcript"; text: string; audioPath: string };

const STYLE = html`<style>
  .playground select, .playground textarea { display: block; width: 100%; padding: .45rem .5rem; border: 1px solid var(--line); border-radius: 6px; font: inherit; }
  .playground .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: 0 1.25rem; }
  .chat-log { display: flex; flex-direction: column; gap: .6rem; margin: 0 0 1rem; min-height: 3rem; }
  .chat-log:empty::before { content: "No messages yet: write one below and press Send (Ctrl+Enter)."; color: var(--muted); }
  .msg { padding: .5rem .75rem; border-radius: 8px; max-width: 85%; white-space: pre-wrap; overflow-wrap: anywhere; }
  .msg.user { align-self: flex-end; background: #e3ebfb; }
  .msg.assistant { align-self: flex-start; background: #eef0f4; }
  .msg.error { align-self: stretch; max-width: none; }
  .msg .who { display: block; font-size: .75rem; color: var(--muted); font-weight: 600; }
  .service-pick { display: flex; gap: 1rem; align-items: end; flex-wrap: wrap; }
  .service-pick select { min-width: 24rem; }
  .service-pick button { margin-top: 0; }
</style>`;

function servicePicker(services: ServiceRecord[], selected: ServiceRecord | undefined): SafeHtml {
  return html`<form method="get" action="${PLAYGROUND_PATH}" class="service-pick">
    <div><label for="pick-service">Service</label>
      <select id="pick-service" name="service">
        ${selected && !services.some((s) => s.id === selected.id) ? html`<option value="${selected.id}" selected>${selected.name} · ${selected.status}</option>` : ""}
        ${services.map(
          (s) => html`<option value="${s.id}" ${s.id === selected?.id ? html`selected` : ""}>${s.name} · ${s.task} · ${s.model} · ${s.status}</option>`,
        )}
      </select></div>
    <button type="submit">Open</button>
  </form>`;
}

/** The key field, only for a service launched with --api-key: one without a key takes none. */
function apiKeyField(id: string, s: ServiceRecord): SafeHtml {
  if (!s.apiKeySet) return html`<p class="hint" id="${id}-none">This service was launched without an API key: nothing to enter.</p>`;
  return html`<label for="${id}">API key</label>
    <input id="${id}" name="apiKey" type="password" autocomplete="off" placeholder="the key given at launch" />
    <p class="hint">Sent as <code>Authorization: Bearer &lt;key&gt;</code> to the service through svc's proxy; never stored.</p>`;
}

function chatCard(s: ServiceRecord, values: PlaygroundValues, result: PlaygroundResult | undefined): SafeHtml {
  return html`<section class="card">
    <h2>Chat</h2>
    <div class="chat-log" id="chat-log" aria-live="polite">${result?.kind === "chat"
      ? html`<div class="msg user"><span class="who">you</span>${result.prompt}</div><div class="msg assistant"><span class="who">assistant</span>${result.answer}</div>`
      : ""}</div>
    <form id="chat-form" method="post" action="${PLAYGROUND_PATH}/${s.id}/chat" data-chat="/proxy/${s.id}/v1/chat/completions" data-model="${s.model}">
      <label for="chat-message">Message</label>
      <textarea id="chat-message" name="message" rows="3" required placeholder="Ask something…">${values.message ?? ""}</textarea>
      <details><summary>Settings</summary>
        <div class="grid">
          <div><label for="chat-max">Max completion tokens</label><input id="chat-max" name="maxTokens" inputmode="numeric" value="${values.maxTokens ?? "128"}" /></div>
          <div><label for="chat-temperature">Temperature</label><input id="chat-temperature" name="temperature" inputmode="decimal" value="${values.temperature ?? "0.7"}" /></div>
        </div>
        <label for="chat-system">System prompt (optional)</label>
        <textarea id="chat-system" name="system" rows="2">${values.system ?? ""}</textarea>
      </details>
      ${apiKeyField("chat-key", s)}
      <div class="actions"><button type="submit" id="chat-send">Send</button><button type="button" class="secondary-button" data-chat-reset hidden>New conversation</button></div>
    </form>
  </section>`;
}

function transcribeCard(s: ServiceRecord, values: PlaygroundValues, result: PlaygroundResult | undefined): SafeHtml {
  const folder = s.speechRecognition?.inputDir ?? "the service's input folder (<profile home>/inputs unless --input-dir was given)";
  return html`<section class="card">
    <h2>Transcription</h2>
    <p class="hint">Put the audio file (WAV) in <code>${folder}</code> on the service host, then give its path relative to that folder.</p>
    <form id="transcribe-form" method="post" action="${PLAYGROUND_PATH}/${s.id}/transcribe" data-transcribe="/proxy/${s.id}/transcribe">
      <label for="audio-path">Audio path</label>
      <input id="audio-path" name="audioPath" required value="${values.audioPath ?? ""}" placeholder="hello.wav" autocomplete="off" spellcheck="false" />
      ${apiKeyField("transcribe-key", s)}
      <button type="submit">Transcribe</button>
    </form>
    <pre class="block" id="transcript" aria-live="polite" ${result?.kind === "transcript" ? "" : html`hidden`}>${result?.kind === "transcript" ? result.text : ""}</pre>
  </section>`;
}

export function playgroundPage(options: {
  services: ServiceRecord[];
  selected?: ServiceRecord;
  values?: PlaygroundValues;
  result?: PlaygroundResult;
  error?: string;
  session: boolean;
}): string {
  const { selected, services } = options;
  const values = options.values ?? {};
  let body: SafeHtml;
  if (!selected) {
    body = services.length
      ? html`<p class="hint">Choose a service above.</p>`
      : html`<p>No service is running. <a href="/services/new">Launch one</a>, wait until it is HEALTHY, and come back.</p>`;
  } else if (selected.status !== "HEALTHY") {
    body = html`<p class="warning" role="status">${selected.name} is ${statusBadge(selected.status)}: it answers once it is HEALTHY.
      Follow it on <a href="${serviceUrl(selected.id)}">its page</a>, then reload this one.</p>`;
  } else {
    body = selected.task === "text-generation" ? chatCard(selected, values, options.result) : transcribeCard(selected, values, options.result);
  }
  return layout(
    { title: "Playground", current: PLAYGROUND_PATH, session: options.session },
    html`${SERVICE_STYLE}${STYLE}<h1>Playground</h1>
      <div class="playground">
        <section class="card">${servicePicker(services, selected)}
          ${selected ? html`<p class="hint">Requests go through <code>/proxy/${selected.id}</code>, like any client's. <a href="${serviceUrl(selected.id)}">Service details</a></p>` : ""}
        </section>
        ${options.error ? html`<p class="error" role="alert" id="playground-error">${options.error}</p>` : ""}
        ${body}
      </div>`,
  );
}
