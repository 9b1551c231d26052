import { html, type SafeHtml } from "./html";

/** One part of a bar: its value, its colour (a CSS class that sets `fill`) and its tooltip. */
export interface BarPart {
  value: number;
  className: string;
  title: string;
}

/** One slot on the x axis: its label (none to leave it unlabelled) and its bars side by side, each a stack of parts. */
export interface ChartSlot {
  label?: string;
  bars: BarPart[][];
}

export interface BarChartOptions {
  /** Unique on the page: the SVG's title is found by it. */
  id: string;
  title: string;
  slots: ChartSlot[];
  /** Below the chart: each text after a swatch of its class (which sets `background` too), or alone. */
  legend: Array<{ className?: string; text: string }>;
}

const CHART = { width: 720, height: 200, top: 16, bottom: 28, left: 8, gap: 2 };

/** The largest stack at each bar position over all slots: each position is scaled to its own. */
export function barMaxima(slots: ChartSlot[]): number[] {
  const positions = Math.max(0, ...slots.map((slot) => slot.bars.length));
  return Array.from({ length: positions }, (_, i) => Math.max(1, ...slots.map((slot) => stackTotal(slot.bars[i] ?? []))));
}

const stackTotal = (parts: BarPart[]) => parts.reduce((sum, part) => sum + part.value, 0);

/** Bars in plain SVG, drawn on the server: per slot, bars side by side, each stacked from its parts. */
export function barChart({ id, title, slots, legend }: BarChartOptions): SafeHtml {
  const slot = (CHART.width - CHART.left) / Math.max(1, slots.length);
  const positions = Math.max(1, ...slots.map((s) => s.bars.length));
  const bar = Math.max(1.5, Math.min(24, slot / positions - CHART.gap));
  const plot = CHART.height - CHART.top - CHART.bottom;
  const maxima = barMaxima(slots);
  return html`<svg class="chart" id="${id}" viewBox="0 0 ${CHART.width} ${CHART.height}" role="img" aria-labelledby="${id}-title">
      <title id="${id}-title">${title}</title>
      ${slots.map((s, i) => {
        const centre = CHART.left + i * slot + slot / 2;
        const first = centre - (positions * bar + (positions - 1) * CHART.gap) / 2;
        return html`<g>
          ${s.bars.map((parts, j) => {
            let top = CHART.top + plot;
            return parts
              .filter((part) => part.value > 0)
              .map((part) => {
                const height = (part.value / maxima[j]) * plot;
                top -= height;
                return html`<rect class="${part.className}" x="${(first + j * (bar + CHART.gap)).toFixed(1)}" y="${top.toFixed(1)}" width="${bar.toFixed(1)}" height="${height.toFixed(1)}"><title>${part.title}</title></rect>`;
              });
          })}
          ${s.label === undefined ? "" : html`<text x="${centre.toFixed(1)}" y="${CHART.height - 10}" text-anchor="middle">${s.label}</text>`}
        </g>`;
      })}
    </svg>
    <p class="legend">${legend.map((entry) => (entry.className ? html`<span class="swatch ${entry.className}"></span>${entry.text}` : html` ${entry.text}`))}</p>`;
}
