import type { UsageReport } from "@svc/contracts";
import { html } from "../html";
import { layout } from "../layout";

export const USAGE_PATH = "/usage";

const STYLE = html`<style>
  .chart { width: 100%; max-width: 56rem; height: auto; }
  .chart .requests { fill: var(--accent); }
  .chart .tokens { fill: var(--ok); }
  .chart text { font-size: 11px; fill: currentColor; }
  .legend span { display: inline-block; width: .8rem; height: .8rem; margin: 0 .3rem 0 1rem; vertical-align: middle; }
  .legend .r { background: var(--accent); }
  .legend .t { background: var(--ok); }
  .filters { display: flex; gap: 1rem; align-items: end; flex-wrap: wrap; }
  .filters label { display: flex; flex-direction: column; }
</style>`;

const CHART = { width: 720, height: 200, top: 16, bottom: 28, left: 8 };

/** Requests and tokens per day as bars in plain SVG (two bars a day, each scaled to its own maximum). */
function dayChart(days: UsageReport["days"]) {
  if (days.length === 0) return html`<p>No requests through /v1 in this period.</p>`;
  const slot = (CHART.width - CHART.left) / days.length;
  const bar = Math.max(2, Math.min(24, slot / 2 - 2));
  const plot = CHART.height - CHART.top - CHART.bottom;
  const maxRequests = Math.max(...days.map((d) => d.requests), 1);
  const maxTokens = Math.max(...days.map((d) => d.promptTokens + d.completionTokens), 1);
  return html`<svg class="chart" viewBox="0 0 ${CHART.width} ${CHART.height}" role="img" aria-labelledby="chart-title">
      <title id="chart-title">Requests and tokens per day</title>
      ${days.map((d, i) => {
        const x = CHART.left + i * slot + slot / 2;
        const tokens = d.promptTokens + d.completionTokens;
        const rh = (d.requests / maxRequests) * plot;
        const th = (tokens / maxTokens) * plot;
        return html`<g>
          <rect class="requests" x="${(x - bar - 1).toFixed(1)}" y="${(CHART.top + plot - rh).toFixed(1)}" width="${bar.toFixed(1)}" height="${rh.toFixed(1)}"><title>${d.day}: ${d.requests} requests</title></rect>
          <rect class="tokens" x="${(x + 1).toFixed(1)}" y="${(CHART.top + plot - th).toFixed(1)}" width="${bar.toFixed(1)}" height="${th.toFixed(1)}"><title>${d.day}: ${tokens} tokens</title></rect>
          <text x="${x.toFixed(1)}" y="${CHART.height - 10}" text-anchor="middle">${d.day.slice(5)}</text>
        </g>`;
      })}
    </svg>
    <p class="legend"><span class="r"></span>requests (max ${maxRequests})<span class="t"></span>tokens (max ${maxTokens})</p>`;
}

const hours = (seconds: number) => (seconds / 3600).toFixed(2);

/** What /v1 served: per day (a chart), per key, model or service (a table), and the services' running time. */
export function usagePage(options: { report: UsageReport; session: boolean; since: string }): string {
  const { report } = options;
  const t = report.totals;
  return layout(
    { title: "Usage", current: USAGE_PATH, session: options.session },
    html`${STYLE}<h1>Usage</h1>
      <form class="filters" method="get" action="${USAGE_PATH}">
        <label>Since <input name="since" value="${options.since}" pattern="[1-9][0-9]{0,5}[mhdw]" /></label>
        <label>By <select name="by">${(["key", "model", "service"] as const).map((by) => html`<option value="${by}" ${report.by === by ? html`selected` : ""}>${by}</option>`)}</select></label>
        <button type="submit">Show</button>
      </form>
      <p>Since ${report.since.slice(0, 16).replace("T", " ")} UTC: ${t.requests} requests (${t.errors} errors), ${t.promptTokens} prompt and ${t.completionTokens} completion tokens. Kept ${report.retentionDays} days.</p>
      <section class="card">${dayChart(report.days)}</section>
      <section class="card">
        <table>
          <thead><tr><th scope="col">${report.by}</th><th scope="col">Requests</th><th scope="col">Errors</th><th scope="col">Prompt tokens</th><th scope="col">Completion tokens</th><th scope="col">Avg latency (ms)</th></tr></thead>
          <tbody>
            ${report.groups.map((g) => html`<tr><td>${g.group}</td><td>${g.requests}</td><td>${g.errors}</td><td>${g.promptTokens}</td><td>${g.completionTokens}</td><td>${Math.round(g.avgLatencyMs)}</td></tr>`)}
          </tbody>
        </table>
      </section>
      <section class="card">
        <h2>Services</h2>
        <table>
          <thead><tr><th scope="col">Service</th><th scope="col">Model</th><th scope="col">Profile</th><th scope="col">Status</th><th scope="col">Running (h)</th><th scope="col">GPU-hours</th></tr></thead>
          <tbody>
            ${report.services.map((s) => html`<tr><td><a href="/services/${encodeURIComponent(s.id)}">${s.name}</a></td><td>${s.model}</td><td>${s.profile}</td><td>${s.status}</td><td>${hours(s.runningSeconds)}</td><td>${s.gpuHours === null ? "–" : s.gpuHours}</td></tr>`)}
          </tbody>
        </table>
      </section>`,
  );
}
