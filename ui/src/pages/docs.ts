import { html, type SafeHtml } from "../html";
import { layout } from "../layout";

/** Where the gateway serves the documentation pages (docs/*.md, rendered). */
export const DOCS_PATH = "/docs";

const STYLE = html`<style>
  .doc { max-width: 60rem; }
  .doc h1 { margin-top: 0; }
  .doc h2 { margin: 1.75rem 0 .75rem; }
  .doc h3 { margin: 1.25rem 0 .5rem; font-size: 1rem; }
  .doc pre { background: #141a26; color: #e8ecf4; padding: .75rem 1rem; border-radius: 6px; overflow-x: auto; }
  .doc pre code { background: transparent; color: inherit; padding: 0; }
  .doc table { margin: .75rem 0; display: block; overflow-x: auto; }
  .doc td, .doc th { vertical-align: top; }
  .doc li { margin: .25rem 0; }
</style>`;

/**
 * One documentation page. `body` is the page's Markdown rendered to HTML: the repository's own
 * text, never a visitor's.
 */
export function docPage(title: string, body: SafeHtml, loggedIn: boolean): string {
  return layout({ title, current: DOCS_PATH, session: loggedIn }, html`${STYLE}<article class="card doc">${body}</article>`);
}

/** The answer for a page name that is not one of the documentation's. */
export function docNotFoundPage(name: string, pages: readonly { name: string; title: string }[], loggedIn: boolean): string {
  return layout(
    { title: "No such page", current: DOCS_PATH, session: loggedIn },
    html`<article class="card doc">
      <h1>No such page</h1>
      <p class="error">The documentation has no page named <code>${name}</code>.</p>
      <p>Its pages:</p>
      <ul>
        ${pages.map((page) => html`<li><a href="${DOCS_PATH}/${page.name}">${page.title}</a></li>`)}
      </ul>
    </article>`,
  );
}
