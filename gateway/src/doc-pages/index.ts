import { Elysia } from "elysia";
import { docNotFoundPage, docPage, DOCS_PATH, raw } from "@svc/ui";
import type { DocPages } from "./service";

const htmlHeaders = { "content-type": "text/html; charset=utf-8" };

/** The documentation (docs/*.md and the README) as UI pages: /docs lists them, /docs/<name> shows one. */
export function docPagesController(pages: DocPages, loggedIn: boolean) {
  const show = (name: string) => {
    const page = pages.page(name);
    if (!page) return new Response(docNotFoundPage(name, pages.list(), loggedIn), { status: 404, headers: htmlHeaders });
    return new Response(docPage(page.title, raw(page.html), loggedIn), { headers: htmlHeaders });
  };
  return new Elysia({ name: "gateway/doc-pages" })
    .get(DOCS_PATH, () => show("index"), { detail: { hide: true } })
    .get(`${DOCS_PATH}/:name`, ({ params }) => show(params.name), { detail: { hide: true } });
}
