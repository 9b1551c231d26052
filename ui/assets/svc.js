// svc web UI: small enhancements on top of server-rendered pages (which all work without this file).
// Text from the server or a service is only ever set with textContent, never as markup.
(() => {
  "use strict";

  const $ = (selector, root = document) => root.querySelector(selector);

  // Copy buttons: <button data-copy="#element-id">.
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const source = $(button.dataset.copy);
    if (!source) return;
    const text = source.dataset.full ?? source.textContent;
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      button.textContent = "Selected: press Ctrl+C";
    }
    setTimeout(() => (button.textContent = "Copy"), 2000);
  });

  // Live logs: <pre data-log-stream="/services/<id>/logs/stream"> shows the last lines, then follows.
  // A stream that fails or ends is opened again while the status panel says the service is live
  // (its data-live attribute, set by the server from the statuses contracts/ defines).
  const MAX_LOG_CHARS = 200_000;
  const serviceLive = () => $("#service-status")?.dataset.live === "true";
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  function followLogs(pre) {
    if (pre.dataset.following) return;
    pre.dataset.following = "1";
    const status = $("#log-status");
    const say = (text) => status && (status.textContent = text);
    const controller = new AbortController();
    addEventListener("pagehide", () => controller.abort(), { once: true });
    (async () => {
      for (;;) {
        const response = await fetch(pre.dataset.logStream, { signal: controller.signal }).catch((error) => {
          if (error.name === "AbortError") throw error;
          return null;
        });
        if (response?.redirected) return say("log in again to follow the output");
        if (response?.ok && response.body) {
          say("following live output");
          const reader = response.body.getReader();
          const decoder = new TextDecoder();
          let first = true;
          try {
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              const nearBottom = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 24;
              // Each stream starts with the last lines again: it replaces what is shown.
              let content = (first ? "" : pre.textContent) + decoder.decode(value, { stream: true });
              first = false;
              if (content.length > MAX_LOG_CHARS) content = content.slice(-MAX_LOG_CHARS);
              pre.textContent = content;
              if (nearBottom) pre.scrollTop = pre.scrollHeight;
            }
          } catch (error) {
            if (error.name === "AbortError") throw error;
          }
        }
        await sleep(2000);
        if (!serviceLive()) return say("the service is not running: its last output is shown");
        say("waiting for output…");
      }
    })().catch(() => {});
  }

  // Chat: streams /proxy/<id>/v1/chat/completions (server-sent events) into the conversation.
  const conversations = new WeakMap();
  function bubble(log, role, text) {
    const div = document.createElement("div");
    div.className = `msg ${role}`;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = role === "user" ? "you" : role;
    const body = document.createElement("span");
    body.className = "text";
    body.textContent = text;
    div.append(who, body);
    log.append(div);
    return body;
  }

  async function errorMessage(response) {
    const text = await response.text();
    try {
      const body = JSON.parse(text);
      return body.message || body.error?.message || body.error || text;
    } catch {
      return text || `${response.status} ${response.statusText}`;
    }
  }

  async function sendChat(form) {
    const log = $("#chat-log");
    const input = form.elements.message;
    const message = input.value.trim();
    if (!message) return input.focus();
    const history = conversations.get(form) ?? [];
    conversations.set(form, history);
    const system = form.elements.system.value.trim();
    history.push({ role: "user", content: message });
    bubble(log, "user", message);
    input.value = "";
    const answer = bubble(log, "assistant", "");
    answer.parentElement.setAttribute("aria-busy", "true");
    const send = $("#chat-send");
    send.disabled = true;
    form.dataset.streaming = "1";
    const headers = { "content-type": "application/json", accept: "text/event-stream" };
    const key = form.elements.apiKey?.value.trim();
    if (key) headers.authorization = `Bearer ${key}`;
    const body = {
      model: form.dataset.model,
      messages: [...(system ? [{ role: "system", content: system }] : []), ...history],
      stream: true,
    };
    const maxTokens = Number.parseInt(form.elements.maxTokens.value, 10);
    if (Number.isInteger(maxTokens) && maxTokens > 0) body.max_completion_tokens = maxTokens;
    const temperature = Number.parseFloat(form.elements.temperature.value);
    if (Number.isFinite(temperature)) body.temperature = temperature;
    let text = "";
    try {
      const response = await fetch(form.dataset.chat, { method: "POST", headers, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`${response.status}: ${await errorMessage(response)}`);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let pending = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        pending += decoder.decode(value, { stream: true });
        const events = pending.split(/\r?\n\r?\n/);
        pending = events.pop();
        for (const event of events) {
          for (const line of event.split(/\r?\n/)) {
            if (!line.startsWith("data:")) continue;
            const data = line.slice(5).trim();
            if (data === "[DONE]") continue;
            const chunk = JSON.parse(data);
            if (chunk.error) throw new Error(chunk.error.message || String(chunk.error));
            const delta = chunk.choices?.[0]?.delta?.content;
            if (delta) {
              text += delta;
              answer.textContent = text;
            }
          }
        }
      }
      history.push({ role: "assistant", content: text });
      if (!text) answer.textContent = "(empty answer)";
      const reset = $("[data-chat-reset]", form);
      if (reset) reset.hidden = false;
    } catch (error) {
      history.pop();
      answer.parentElement.classList.add("error");
      answer.textContent = `The service did not answer: ${error.message}`;
    } finally {
      answer.parentElement.removeAttribute("aria-busy");
      send.disabled = false;
      delete form.dataset.streaming;
      input.focus();
    }
  }

  async function transcribe(form) {
    const out = $("#transcript");
    const headers = { "content-type": "application/json" };
    const key = form.elements.apiKey?.value.trim();
    if (key) headers.authorization = `Bearer ${key}`;
    out.hidden = false;
    out.textContent = "Transcribing…";
    try {
      const response = await fetch(form.dataset.transcribe, {
        method: "POST",
        headers,
        body: JSON.stringify({ audio_path: form.elements.audioPath.value.trim(), response_format: "text" }),
      });
      if (!response.ok) throw new Error(`${response.status}: ${await errorMessage(response)}`);
      out.textContent = (await response.json()).text;
    } catch (error) {
      out.textContent = `The service did not answer: ${error.message}`;
    }
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.matches("[data-chat]")) {
      event.preventDefault();
      if (!form.dataset.streaming) sendChat(form);
    } else if (form.matches("[data-transcribe]")) {
      event.preventDefault();
      transcribe(form);
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && event.target.matches("#chat-message")) {
      event.preventDefault();
      event.target.form.requestSubmit();
    }
  });
  document.addEventListener("click", (event) => {
    const reset = event.target.closest("[data-chat-reset]");
    if (!reset) return;
    conversations.delete(reset.form);
    $("#chat-log").replaceChildren();
    reset.hidden = true;
  });

  // Launch form: offer only the models of the chosen task, and the revisions of the chosen model and profile.
  function filterLaunch(form) {
    const task = form.querySelector('input[name="task"]:checked')?.value;
    const model = form.elements.model;
    const profile = form.elements.profile?.value;
    for (const option of model.querySelectorAll("option[data-task]")) option.hidden = option.dataset.task !== task;
    if (model.selectedOptions[0]?.hidden) model.value = "";
    for (const option of form.elements.revision.querySelectorAll("option[data-repo]")) {
      option.hidden = option.dataset.repo !== model.value || (profile && option.dataset.profile !== profile);
    }
    if (form.elements.revision.selectedOptions[0]?.hidden) form.elements.revision.value = "";
  }
  document.addEventListener("change", (event) => {
    const form = event.target.form;
    if (form?.matches("[data-launch-form]")) filterLaunch(form);
  });

  // A poll answered by the log-in page (the session ended): go there, and come back here after it.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const url = event.detail.xhr?.responseURL;
    if (url && new URL(url).pathname === "/login") {
      event.detail.shouldSwap = false;
      event.preventDefault();
      location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
    }
  });

  function init(root) {
    for (const pre of root.querySelectorAll?.("[data-log-stream]") ?? []) followLogs(pre);
    for (const form of root.querySelectorAll?.("[data-launch-form]") ?? []) filterLaunch(form);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => init(document));
  else init(document);
  document.addEventListener("htmx:load", (event) => init(event.target));
})();
