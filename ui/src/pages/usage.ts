import { USAGE_HOURLY_WINDOWS, USAGE_WINDOW_HOURS, type KeyAllowance, type UsageReport } from "@svc/contracts";
import { barChart, barMaxima } from "../bar-chart";
import { html } from "../html";
import { layout } from "../layout";

export const USAGE_PATH = "/usage";

const STYLE = html`<style>
  .chart { width: 100%; max-width: 56rem; height: auto; }
  .chart text { font-size: 11px; fill: currentColor; }
  .requests { fill: var(--accent); background: var(--accent); }
  .tokens { fill: var(--ok); background: var(--ok); }
  .k0 { fill: #2456c7; background: #2456c7; } .k1 { fill: #1d7a46; background: #1d7a46; } .k2 { fill: #c2410c; background: #c2410c; } .k3 { fill: #7c3aed; background: #7c3aed; }
  .k4 { fill: #0e7490; background: #0e7490; } .k5 { fill: #be185d; background: #be185d; } .k6 { fill: #a16207; background: #a16207; } .k7 { fill: #475569; background: #475569; }
  .legend .swatch { display: inline-block; width: .8rem; height: .8rem; margin: 0 .3rem 0 1rem; vertical-align: middle; }
  .filters { display: flex; gap: 1rem; align-items: end; flex-wrap: wrap; }
  .filters label { display: flex; flex-direction: column; }
  .switch a[aria-current="true"] { font-weight: 600; color: var(--fg); text-decoration: none; }
  .allowances th[scope="row"] { white-space: nowrap; }
  .allowances meter { display: block; width: 100%; max-width: 14rem; }
  .allowances .spent { display: block; }
  .allowances small { display: block; color: var(--muted); font-weight: 400; }
</style>`;

const count = (n: number) => n.toLocaleString("en-US");
/** "1 request", "1,200 tokens". */
const amount = (n: number, unit: "request" | "token") => `${count(n)} ${unit}${n === 1 ? "" : "s"}`;

/** Requests and tokens per day, each scaled to its own maximum. */
function dayChart(days: UsageReport["days"]) {
  if (days.length === 0) return html`<p>No requests through /v1 in this period.</p>`;
  const tokens = (d: UsageReport["days"][number]) => d.promptTokens + d.completionTokens;
  const slots = days.map((d) => ({
    label: d.day.slice(5),
    bars: [[{ value: d.requests, className: "requests", title: `${d.day}: ${d.requests} requests` }], [{ value: tokens(d), className: "tokens", title: `${d.day}: ${tokens(d)} tokens` }]],
  }));
  const [maxRequests, maxTokens] = barMaxima(slots);
  return barChart({ id: "day-chart", title: "Requests and tokens per day", slots, legend: [{ className: "requests", text: `requests (max ${maxRequests})` }, { className: "tokens", text: `tokens (max ${maxTokens})` }] });
}

const HOUR_MS = 3_600_000;
const KEY_COLOURS = 8;

/** Tokens per hour over the last day or week, a bar an hour stacked by caller (the busiest callers get the first colours). */
function hourChart(hourly: UsageReport["hourly"]) {
  const totals = new Map<string, number>();
  for (const h of hourly.hours) totals.set(h.key, (totals.get(h.key) ?? 0) + h.tokens);
  const callers = [...totals.entries()].filter(([, tokens]) => tokens > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const span = hourly.window === "day" ? "the last day" : "the last week";
  if (callers.length === 0) return html`<p>No tokens through /v1 in ${span}.</p>`;
  const colour = new Map(callers.map(([key], i) => [key, `k${i % KEY_COLOURS}`]));
  const from = Date.parse(hourly.from);
  const slots = Array.from({ length: USAGE_WINDOW_HOURS[hourly.window] }, (_, i) => {
    const start = new Date(from + i * HOUR_MS).toISOString();
    const label = hourly.window === "day" ? (i % 3 === 0 ? `${start.slice(11, 13)}h` : undefined) : start.slice(11, 13) === "00" ? start.slice(5, 10) : undefined;
    const parts = hourly.hours
      .filter((h) => h.hour === start && h.tokens > 0)
      .map((h) => ({ value: h.tokens, className: colour.get(h.key)!, title: `${start.slice(0, 13).replace("T", " ")}:00 UTC, ${h.key}: ${amount(h.tokens, "token")}, ${amount(h.requests, "request")}` }));
    return { label, bars: [parts] };
  });
  const [max] = barMaxima(slots);
  return barChart({
    id: "hour-chart",
    title: `Tokens per hour per key over ${span}`,
    slots,
    legend: [...callers.map(([key, tokens]) => ({ className: colour.get(key)!, text: `${key} (${count(tokens)})` })), { text: `— max ${count(max)} tokens an hour (UTC)` }],
  });
}

/** What was spent, with a bar against the limit when there is one. */
function spentAgainst(who: string, used: number, limit: number | null, unit: "request" | "token", when: string) {
  if (limit === null) return html`<span class="spent">${amount(used, unit)}</span>`;
  const percent = Math.round((used / limit) * 100);
  const of = `${count(used)} of ${amount(limit, unit)}`;
  return html`<span class="spent"><meter min="0" max="${limit}" value="${Math.min(used, limit)}" low="${limit * 0.75}" high="${limit * 0.9}" optimum="0" aria-label="${who}: ${of} ${when} (${percent}%)"></meter>${count(used)} / ${amount(limit, unit)} (${percent}%)</span>`;
}

const KIND_NOTES: Record<KeyAllowance["kind"], string> = { key: "", removed: "removed key", token: "svc token, UI", anonymous: "no key (debug)" };

/** Each key against its limits and budgets: the last minute, today and this month (UTC), and its 429s over the period. */
function allowanceTable(keys: KeyAllowance[]) {
  if (keys.length === 0) return html`<p>No API keys yet, and no requests through /v1 this month.</p>`;
  return html`<table class="allowances" id="usage-keys">
    <thead><tr><th scope="col">Key</th><th scope="col">Last minute</th><th scope="col">Today (UTC)</th><th scope="col">This month (UTC)</th><th scope="col">429s</th></tr></thead>
    <tbody>
      ${keys.map((k) => {
        const notes = [KIND_NOTES[k.kind], k.limits.maxParallel === null ? "" : `${count(k.limits.maxParallel)} at once`].filter(Boolean).join(", ");
        return html`<tr>
          <th scope="row">${k.name}${notes ? html`<small>${notes}</small>` : ""}</th>
          <td>${spentAgainst(k.name, k.lastMinute.requests, k.limits.requestsPerMinute, "request", "in the last minute")}${spentAgainst(k.name, k.lastMinute.tokens, k.limits.tokensPerMinute, "token", "in the last minute")}</td>
          <td>${spentAgainst(k.name, k.today.tokens, k.limits.dailyTokens, "token", "today")}<small>${amount(k.today.requests, "request")}</small></td>
          <td>${spentAgainst(k.name, k.month.tokens, k.limits.monthlyTokens, "token", "this month")}<small>${amount(k.month.requests, "request")}</small></td>
          <td>${count(k.refused429)}</td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

const hours = (seconds: number) => (seconds / 3600).toFixed(2);

/**
 * What /v1 served: each key against its limits and budgets, tokens per hour per key (the last day or
 * week), per day (a chart), per key, model or service (a table), and the services' running time.
 */
export function usagePage(options: { report: UsageReport; session: boolean; since: string }): string {
  const { report } = options;
  const t = report.totals;
  const windowLink = (window: (typeof USAGE_HOURLY_WINDOWS)[number]) =>
    html`<a href="${USAGE_PATH}?${new URLSearchParams({ since: options.since, by: report.by, hours: window }).toString()}" ${report.hourly.window === window ? html`aria-current="true"` : ""}>last ${window}</a>`;
  return layout(
    { title: "Usage", current: USAGE_PATH, session: options.session },
    html`${STYLE}<h1>Usage</h1>
      <form class="filters" method="get" action="${USAGE_PATH}">
        <label>Since <input name="since" value="${options.since}" pattern="[1-9][0-9]{0,5}[mhdw]" /></label>
        <label>By <select name="by">${(["key", "model", "service"] as const).map((by) => html`<option value="${by}" ${report.by === by ? html`selected` : ""}>${by}</option>`)}</select></label>
        <input type="hidden" name="hours" value="${report.hourly.window}" />
        <button type="submit">Show</button>
      </form>
      <p>Since ${report.since.slice(0, 16).replace("T", " ")} UTC: ${t.requests} requests (${t.errors} errors), ${t.promptTokens} prompt and ${t.completionTokens} completion tokens. Kept ${report.retentionDays} days.</p>
      <section class="card">
        <h2>Keys against their limits <small>at ${report.at.slice(0, 16).replace("T", " ")} UTC; 429s since ${report.since.slice(0, 16).replace("T", " ")}</small></h2>
        ${allowanceTable(report.keys)}
      </section>
      <section class="card">
        <h2>Tokens per hour</h2>
        <p class="switch">${windowLink("day")} · ${windowLink("week")}</p>
        ${hourChart(report.hourly)}
      </section>
      <section class="card">
        <h2>Per day</h2>
        ${dayChart(report.days)}
      </section>
      <section class="card">
        <table id="usage-groups">
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
