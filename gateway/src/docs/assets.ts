import { dirname, join } from "node:path";

const swaggerDir = dirname(require.resolve("swagger-ui-dist/package.json"));

/** The docs page's files, served from installed packages so the page renders offline. */
export const DOCS_ASSETS: Record<string, { file: string; type: string }> = {
  "swagger-ui.css": { file: join(swaggerDir, "swagger-ui.css"), type: "text/css; charset=utf-8" },
  "swagger-ui-bundle.js": { file: join(swaggerDir, "swagger-ui-bundle.js"), type: "text/javascript; charset=utf-8" },
  "init.js": { file: join(import.meta.dir, "init.js"), type: "text/javascript; charset=utf-8" },
};

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>svc API docs</title>
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css" />
  <style>
    .svc-back { display: flex; gap: 1.25rem; align-items: center; padding: .6rem 1.5rem; background: #141a26; font-family: system-ui, sans-serif; }
    .svc-back a { color: #dfe5f2; text-decoration: none; }
    .svc-back a.brand { color: #fff; font-weight: 700; }
    .svc-back a:focus-visible { outline: 3px solid #8fb0f5; outline-offset: 2px; }
  </style>
</head>
<body>
  <nav class="svc-back" aria-label="svc">
    <a class="brand" href="/">svc</a>
    <a id="back-to-ui" href="/services">← Back to the web UI</a>
  </nav>
  <div id="swagger-ui"></div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/api/docs/assets/init.js"></script>
</body>
</html>`;
