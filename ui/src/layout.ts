import { html, type SafeHtml } from "./html";
import { ASSET_PREFIX } from "./assets";

export interface LayoutOptions {
  title: string;
  /** Path of the current page, to mark its navigation link. */
  current?: string;
  /** Whether the visitor is logged in with a session (shows the log-out button). */
  session?: boolean;
  /** Hide the navigation (login page). */
  bare?: boolean;
  /**
   * Without JavaScript, reload the page this often (htmx updates it otherwise). In the head, where
   * `<noscript>` is inert text when scripts run and htmx's swaps of #main never carry it: a meta
   * refresh that htmx inserted into the body would be live, and reload the page under the script.
   */
  reloadWithoutScriptSeconds?: number;
}

const NAV = [
  { href: "/services", label: "Services" },
  { href: "/services/new", label: "Launch" },
  { href: "/batches", label: "Batch jobs" },
  { href: "/playground", label: "Playground" },
  { href: "/", label: "Overview" },
  { href: "/profiles", label: "Profiles" },
  { href: "/models", label: "Models" },
  { href: "/keys", label: "Keys" },
  { href: "/usage", label: "Usage" },
  { href: "/docs", label: "Docs" },
  { href: "/api/docs", label: "API docs" },
];

export function layout(options: LayoutOptions, body: SafeHtml): string {
  const nav = options.bare
    ? html``
    : html`<nav class="nav" aria-label="Main">
        <a class="brand" href="/">svc</a>
        <ul>
          ${NAV.map(
            (item) =>
              html`<li><a href="${item.href}" ${item.href === options.current ? html`aria-current="page"` : ""}>${item.label}</a></li>`,
          )}
        </ul>
        ${options.session
          ? html`<form method="post" action="/logout" class="logout"><button type="submit">Log out</button></form>`
          : ""}
      </nav>`;
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${options.title} · svc</title>
    <link rel="stylesheet" href="${ASSET_PREFIX}/app.css" />
    <script src="${ASSET_PREFIX}/htmx.min.js" defer></script>
    <script src="${ASSET_PREFIX}/svc.js" defer></script>
    ${options.reloadWithoutScriptSeconds ? html`<noscript><meta http-equiv="refresh" content="${String(options.reloadWithoutScriptSeconds)}" /></noscript>` : ""}
  </head>
  <body>
    ${nav}
    <main id="main">${body}</main>
  </body>
</html>`.value;
}
