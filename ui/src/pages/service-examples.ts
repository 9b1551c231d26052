import type { ServiceRecord } from "@svc/contracts";
import { html, type SafeHtml } from "../html";

/** Shell-quotes a value for the examples (single quotes; a quote inside is closed, escaped, reopened). */
const sq = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The examples as plain text, so they can be copied exactly. */
export function exampleTexts(s: ServiceRecord, origin: string, tokenRequired: boolean): Array<{ id: string; label: string; text: string }> {
  const base = `${origin}/proxy/${s.id}`;
  const headers = [
    `  -H 'Content-Type: application/json'`,
    ...(s.apiKeySet ? [`  -H "Authorization: Bearer $API_KEY"`] : []),
    ...(tokenRequired ? [`  -H "X-Svc-Token: $SVC_AUTH_TOKEN"`] : []),
  ];
  if (s.task === "speech-recognition") {
    const body = JSON.stringify({ audio_path: "hello.wav", response_format: "text" });
    return [
      { id: "example-curl", label: "curl", text: [`curl ${base}/transcribe \\`, ...headers.map((h) => `${h} \\`), `  -d ${sq(body)}`].join("\n") },
      {
        id: "example-python",
        label: "Python",
        text: [
          "import os, requests",
          "",
          `headers = {${[s.apiKeySet ? `"Authorization": f"Bearer {os.environ['API_KEY']}"` : "", tokenRequired ? `"X-Svc-Token": os.environ["SVC_AUTH_TOKEN"]` : ""].filter(Boolean).join(", ")}}`,
          `reply = requests.post("${base}/transcribe", headers=headers,`,
          `                      json={"audio_path": "hello.wav", "response_format": "text"})`,
          `print(reply.json()["text"])`,
        ].join("\n"),
      },
    ];
  }
  const body = JSON.stringify({ model: s.model, messages: [{ role: "user", content: "Hello!" }], max_completion_tokens: 64 });
  const pyKey = s.apiKeySet ? `os.environ["API_KEY"]` : `"unused"`;
  const jsKey = s.apiKeySet ? "process.env.API_KEY" : `"unused"`;
  return [
    { id: "example-curl", label: "curl", text: [`curl ${base}/v1/chat/completions \\`, ...headers.map((h) => `${h} \\`), `  -d ${sq(body)}`].join("\n") },
    {
      id: "example-python",
      label: "Python (openai)",
      text: [
        "import os",
        "from openai import OpenAI",
        "",
        "client = OpenAI(",
        `    base_url="${base}/v1",`,
        `    api_key=${pyKey},`,
        ...(tokenRequired ? [`    default_headers={"X-Svc-Token": os.environ["SVC_AUTH_TOKEN"]},`] : []),
        ")",
        `reply = client.chat.completions.create(model="${s.model}", messages=[{"role": "user", "content": "Hello!"}])`,
        "print(reply.choices[0].message.content)",
      ].join("\n"),
    },
    {
      id: "example-js",
      label: "JavaScript (openai)",
      text: [
        `import OpenAI from "openai";`,
        "",
        "const client = new OpenAI({",
        `  baseURL: "${base}/v1",`,
        `  apiKey: ${jsKey},`,
        ...(tokenRequired ? [`  defaultHeaders: { "X-Svc-Token": process.env.SVC_AUTH_TOKEN },`] : []),
        "});",
        `const reply = await client.chat.completions.create({ model: "${s.model}", messages: [{ role: "user", content: "Hello!" }] });`,
        "console.log(reply.choices[0].message.content);",
      ].join("\n"),
    },
    {
      id: "example-v1",
      label: "Any service of this model: svc's one endpoint /v1 (Python, openai)",
      text: [
        "import os",
        "from openai import OpenAI",
        "",
        "# SVC_API_KEY: a key from 'svc key create' (or svc's auth token); the gateway sends the service's own key.",
        `client = OpenAI(base_url="${origin}/v1", api_key=os.environ.get("SVC_API_KEY", "unused"))`,
        `reply = client.chat.completions.create(model="${s.model}", messages=[{"role": "user", "content": "Hello!"}])`,
        "print(reply.choices[0].message.content)",
      ].join("\n"),
    },
  ];
}

/** Copyable example requests to the svc URL, below the status and logs; folded until opened. */
export function exampleRequests(s: ServiceRecord, origin: string, tokenRequired: boolean): SafeHtml {
  return html`<details class="card" id="examples">
    <summary>Code examples (curl, ${s.task === "text-generation" ? "Python and JavaScript with openai" : "Python"})</summary>
    <p class="hint">They call the svc URL above.${s.apiKeySet ? " Set API_KEY to the key given at launch." : ""}${tokenRequired ? " Set SVC_AUTH_TOKEN to svc's auth token (debug mode is off)." : ""}</p>
    ${exampleTexts(s, origin, tokenRequired).map(
      (example) => html`<div class="actions"><h3>${example.label}</h3><button type="button" class="secondary-button" data-copy="#${example.id}">Copy</button></div>
        <pre class="block" id="${example.id}">${example.text}</pre>`,
    )}
  </details>`;
}
