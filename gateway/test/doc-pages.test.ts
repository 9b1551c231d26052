/**
 * The documentation: every internal link of README.md and docs/*.md resolves (file and GitHub-style
 * anchor), and the gateway's /docs renders every page with its links pointing at other /docs pages.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { REPO_ROOT } from "@svc/testing";
import { docPagesController } from "../src/doc-pages";
import { DocPages, headingSlug, isRelativeLink, linksOf, renderMarkdown } from "../src/doc-pages/service";
import { checkAccess, isPublicPath } from "../src/auth/service";

/** The Markdown files of the documentation under `root`: README.md and docs/*.md. */
function markdownFiles(root: string): string[] {
  const docs = join(root, "docs");
  return ["README.md", ...readdirSync(docs).filter((file) => file.endsWith(".md")).map((file) => `docs/${file}`)];
}

/** Every broken internal link under `root`, as `file: link (why)`. */
function brokenLinks(root: string): string[] {
  const files = markdownFiles(root);
  const rendered = new Map(files.map((file) => [file, renderMarkdown(readFileSync(join(root, file), "utf8"))]));
  const problems: string[] = [];
  for (const [file, { html, anchors }] of rendered) {
    for (const href of linksOf(html)) {
      if (href.startsWith("#")) {
        if (!anchors.has(href.slice(1))) problems.push(`${file}: ${href} (no such heading here)`);
        continue;
      }
      if (!isRelativeLink(href)) continue;
      const [path, hash] = href.split("#", 2);
      const target = relative(root, resolve(root, dirname(file), path));
      const page = target === "docs" ? "docs/index.md" : target;
      if (!existsSync(join(root, target))) problems.push(`${file}: ${href} (${target} does not exist)`);
      else if (!rendered.has(page)) problems.push(`${file}: ${href} (not a documentation page, so /docs cannot serve it)`);
      else if (hash !== undefined && !rendered.get(page)!.anchors.has(hash)) problems.push(`${file}: ${href} (${page} has no heading #${hash})`);
    }
  }
  return problems;
}

describe("internal links", () => {
  test("GitHub's anchors: lower case, punctuation dropped, each space a hyphen", () => {
    expect(headingSlug("Lifecycle policies: stop when idle, start on demand")).toBe("lifecycle-policies-stop-when-idle-start-on-demand");
    expect(headingSlug("svc run — options & Co.")).toBe("svc-run--options--co");
    expect([...renderMarkdown("## Set up\n\n## Set up\n\n## The `svc` runtime\n").anchors]).toEqual(["set-up", "set-up-1", "the-svc-runtime"]);
  });

  test("every relative link and #anchor of README.md and docs/*.md resolves", () => {
    expect(brokenLinks(REPO_ROOT)).toEqual([]);
  });

  test("the check finds a missing file, a missing anchor, and a link to a file that is not a page", () => {
    const root = mkdtempSync(join(tmpdir(), "svc-doc-links-"));
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "README.md"), "# svc\n\n[gone](docs/gone.md) [a](docs/a.md#nowhere) [ok](docs/a.md#part-one) [src](package.json)\n");
    writeFileSync(join(root, "docs", "a.md"), "# A\n\n## Part one\n\n[self](#part-two) [up](../README.md#svc)\n");
    writeFileSync(join(root, "package.json"), "{}");
    expect(brokenLinks(root)).toEqual([
      "README.md: docs/gone.md (docs/gone.md does not exist)",
      "README.md: docs/a.md#nowhere (docs/a.md has no heading #nowhere)",
      "README.md: package.json (not a documentation page, so /docs cannot serve it)",
      "docs/a.md: #part-two (no such heading here)",
    ]);
  });
});

describe("/docs", () => {
  const pages = new DocPages();
  const app = docPagesController(pages, false);
  const get = (path: string) => app.handle(new Request(`http://localhost${path}`));

  test("/docs lists every page, and each renders with its title in the UI's layout", async () => {
    const index = await get("/docs");
    expect(index.status).toBe(200);
    const listing = await index.text();
    const names = pages.list().map((page) => page.name);
    expect(names.length).toBeGreaterThanOrEqual(12);
    for (const name of names) expect(listing).toContain(`href="/docs/${name}"`);
    for (const { name, title } of [...pages.list(), { name: "readme", title: "svc — inference service manager" }]) {
      const response = await get(`/docs/${name}`);
      expect({ name, status: response.status }).toEqual({ name, status: 200 });
      const body = await response.text();
      expect(body).toContain(`<title>${title} · svc</title>`);
      expect(body).toContain(`<a href="/docs" aria-current="page">Docs</a>`);
    }
  });

  test("links between pages point under /docs and reach a page with that heading", async () => {
    const names = ["index", "readme", ...pages.list().map((page) => page.name)];
    const checked: string[] = [];
    for (const name of names) {
      for (const href of linksOf(pages.page(name)!.html)) {
        expect({ name, href, relative: isRelativeLink(href) }).toEqual({ name, href, relative: false });
        if (!href.startsWith("/docs")) continue;
        const [path, hash] = href.split("#", 2);
        const target = path === "/docs" ? "index" : path.slice("/docs/".length);
        expect({ href, found: pages.page(target) !== undefined }).toEqual({ href, found: true });
        if (hash !== undefined) expect({ href, anchor: pages.page(target)!.anchors.has(hash) }).toEqual({ href, anchor: true });
        checked.push(href);
      }
    }
    expect(checked).toContain("/docs/slurm#reconnects-to-a-cluster");
    expect(checked).toContain("/docs/readme");
  });

  test("an unknown page is a 404 page that lists the pages; names are never paths", async () => {
    for (const path of ["/docs/nothing-here", "/docs/..%2FREADME", "/docs/profiles.md", "/docs/%3Cscript%3E"]) {
      const response = await get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      const body = await response.text();
      expect(body).toContain("No such page");
      expect(body).toContain(`href="/docs/profiles"`);
      expect(body).not.toContain("<script>");
    }
  });

  test("the pages are public, like the UI's static files", () => {
    for (const path of ["/docs", "/docs/profiles"]) {
      expect(isPublicPath(path)).toBe(true);
      expect(checkAccess(new Request(`http://localhost:8000${path}`), { token: "the-auth-token-0123456789" })).toEqual({ kind: "allow", via: "public" });
    }
    expect(isPublicPath("/docsx")).toBe(false);
  });
});
