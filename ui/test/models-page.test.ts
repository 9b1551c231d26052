import { expect, test } from "bun:test";
import type { DownloadTask } from "@svc/contracts";
import { downloadProgress, modelsPage } from "../src";

const task = (state: DownloadTask["state"]) =>
  ({ id: "d1", repo: "acme/tiny-llm", requestedRevision: "main", revision: "0".repeat(40), profile: "default", state, bytesDone: 1, bytesTotal: 2, bytesResumed: 0, filesDone: 0, filesTotal: 1 }) as DownloadTask;
const page = (download: DownloadTask) => modelsPage({ models: [], profiles: ["default"], filters: {}, session: false, download });
const main = (html: string) => html.slice(html.indexOf('<main id="main">'));

test("a running download reloads the page every 2 s without JavaScript, from the head only: htmx's swaps and polls never carry a live meta refresh", () => {
  const running = page(task("running"));
  expect(running.slice(0, running.indexOf("</head>"))).toContain('<noscript><meta http-equiv="refresh" content="2" /></noscript>');
  expect(main(running)).not.toContain("http-equiv");
  expect(downloadProgress(task("running")).value).not.toContain("http-equiv");
  expect(page(task("completed"))).not.toContain("http-equiv");
});
