import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { DOCS_PATH } from "@svc/ui";

/** The repository (or the app image's /app): README.md and docs/ are at its top. */
const DEFAULT_ROOT = resolve(import.meta.dir, "..", "..", "..");

/** A page name as it appears in /docs/<name>: a docs/*.md file's name, or `readme`. */
const PAGE_NAME = /^[a-z0-9][a-z0-9-]*$/;

export interface DocPage {
  name: string;
  title: string;
  /** Its Markdown rendered to HTML, links between pages pointing under /docs. */
  html: string;
  /** The ids of its headings. */
  anchors: Set<string>;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
const decode = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]);
const attribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/** The anchor GitHub gives a heading's text: lower case, punctuation dropped, each space a hyphen. */
export function headingSlug(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/**
 * Markdown to HTML with Bun's own renderer (GitHub's tables, and its filter of tags such as
 * <script>), each heading given GitHub's anchor (a repeat numbered `-1`, `-2`, as GitHub does).
 */
export function renderMarkdown(markdown: string): { html: string; anchors: Set<string> } {
  const anchors = new Set<string>();
  const rendered = Bun.markdown.html(markdown, { tables: true, strikethrough: true, tagFilter: true });
  const html = rendered.replace(/<h([1-6])>([\s\S]*?)<\/h\1>/g, (_, level: string, inner: string) => {
    const base = headingSlug(decode(inner.replace(/<[^>]*>/g, "")));
    let id = base;
    for (let n = 1; anchors.has(id); n++) id = `${base}-${n}`;
    anchors.add(id);
    return `<h${level} id="${attribute(id)}">${inner}</h${level}>`;
  });
  return { html, anchors };
}

/** The href values of rendered HTML, decoded. */
export function linksOf(html: string): string[] {
  return [...html.matchAll(/<a href="([^"]*)"/g)].map((match) => decode(match[1]));
}

/** Whether an href points into the repository (no scheme, not absolute, not only an anchor). */
export function isRelativeLink(href: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith("/") && !href.startsWith("#");
}

/**
 * The documentation as the gateway serves it: docs/*.md (docs/index.md at /docs) and the README
 * (at /docs/readme), each rendered once, on first request.
 */
export class DocPages {
  private readonly docsDir: string;
  private readonly readme: string;
  private readonly cache = new Map<string, DocPage>();

  constructor(private readonly root = DEFAULT_ROOT) {
    this.docsDir = join(root, "docs");
    this.readme = join(root, "README.md");
  }

  /** Every page but the index, by file name. */
  list(): { name: string; title: string }[] {
    const names = existsSync(this.docsDir)
      ? readdirSync(this.docsDir).filter((file) => file.endsWith(".md") && file !== "index.md").map((file) => file.slice(0, -3))
      : [];
    return names.sort().map((name) => ({ name, title: this.page(name)?.title ?? name }));
  }

  /** A page by name (`index` for /docs itself), or undefined when there is none. */
  page(name: string): DocPage | undefined {
    if (!PAGE_NAME.test(name)) return undefined;
    const cached = this.cache.get(name);
    if (cached) return cached;
    const file = this.fileOf(name);
    if (!existsSync(file)) return undefined;
    const markdown = readFileSync(file, "utf8");
    const { html, anchors } = renderMarkdown(markdown);
    const title = /^#\s+(.+)$/m.exec(markdown)?.[1].replace(/`/g, "").trim() ?? name;
    const page = { name, title, html: this.pointLinksUnderDocs(html, dirname(file)), anchors };
    this.cache.set(name, page);
    return page;
  }

  private fileOf(name: string): string {
    return name === "readme" ? this.readme : join(this.docsDir, `${name}.md`);
  }

  /** The /docs path of a file of the repository, when it is one of the pages. */
  private pathOf(file: string): string | undefined {
    if (file === this.readme) return `${DOCS_PATH}/readme`;
    const inDocs = relative(this.docsDir, file);
    if (inDocs === "" || inDocs === "index.md") return DOCS_PATH;
    if (/^[a-z0-9][a-z0-9-]*\.md$/.test(inDocs) && inDocs !== "readme.md") return `${DOCS_PATH}/${inDocs.slice(0, -3)}`;
    return undefined;
  }

  /** Relative links between the Markdown files become links between /docs pages. */
  private pointLinksUnderDocs(html: string, fromDir: string): string {
    return html.replace(/<a href="([^"]*)"/g, (whole, encoded: string) => {
      const href = decode(encoded);
      if (!isRelativeLink(href)) return whole;
      const [path, hash] = href.split("#", 2);
      const target = this.pathOf(resolve(fromDir, path));
      return target ? `<a href="${attribute(target + (hash === undefined ? "" : `#${hash}`))}"` : whole;
    });
  }
}
