import { html } from "../html";
import { layout } from "../layout";

export function loginPage(options: { next: string; error?: string; tokenFile: string }): string {
  return layout(
    { title: "Log in", bare: true },
    html`<section class="card narrow">
      <h1>Log in to svc</h1>
      <p>Debug mode is off, so this application needs its auth token. It is the value of
        <code>SVC_AUTH_TOKEN</code>, or the one <code>svc start</code> printed and wrote to
        <code>${options.tokenFile}</code>.</p>
      ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ""}
      <form method="post" action="/login">
        <input type="hidden" name="next" value="${options.next}" />
        <label for="token">Auth token</label>
        <input id="token" name="token" type="password" autocomplete="current-password" required autofocus />
        <button type="submit">Log in</button>
      </form>
    </section>`,
  );
}
