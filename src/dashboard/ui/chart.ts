import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import uPlot from 'uplot';
import { LocaleController, t } from '../i18n/i18n.js';
import pageStyles from './page.styles.js';
import styles from './chart.styles.js';

export interface ChartSeries {
  label: string;
  /** One value per label; null: no data that day. */
  values: (number | null)[];
  color: string;
}

/**
 * A line chart over days (uPlot: small and fast, canvas), always with its data as a table: the
 * canvas is hidden from assistive technology and the table is what a screen reader reads; a
 * button shows the table on screen too. Without data (every value none or zero) it says so
 * ("No data yet") instead of drawing axes around nothing.
 */
@customElement('aicd-chart')
export class AicdChart extends LitElement {
  static override styles = [pageStyles, styles];

  /** The chart's title (its caption and the table's). */
  @property() caption = '';
  /** Day starts, ISO dates; the x axis and the table's rows. */
  @property({ attribute: false }) days: string[] = [];
  @property({ attribute: false }) series: ChartSeries[] = [];
  /** How a value reads, e.g. `(v) => `${v} ms``. */
  @property({ attribute: false }) format: (value: number) => string = (value) => String(value);
  @property({ type: Number }) height = 200;

  @state() private showTable = false;
  @query('.plot') private plotHost!: HTMLElement;
  private readonly i18n = new LocaleController(this);
  private plot: uPlot | null = null;
  private resize?: ResizeObserver;

  /** Nothing to draw: no day, or no value but none and zero. */
  private get empty(): boolean {
    return !this.days.length || this.series.every((s) => s.values.every((v) => v === null || v === undefined || v === 0));
  }

  override render() {
    const tableId = 'table';
    if (this.empty) {
      return html`<figure>
        <figcaption><span>${this.caption}</span></figcaption>
        <p class="empty">${t('chart.noData')}</p>
      </figure>`;
    }
    return html`<figure>
      <figcaption>
        <span>${this.caption}</span>
        <span class="legend" aria-hidden="true">
          ${this.series.map((s) => html`<span><span class="swatch" data-color=${s.color}></span>${s.label}</span>`)}
        </span>
        <button type="button" aria-expanded=${this.showTable ? 'true' : 'false'} aria-controls=${tableId} @click=${() => (this.showTable = !this.showTable)}>
          ${t(this.showTable ? 'chart.hideTable' : 'chart.showTable')}
        </button>
      </figcaption>
      <div class="plot" aria-hidden="true"></div>
      <table id=${tableId} class=${this.showTable ? '' : 'visually-hidden'}>
        <caption>${this.caption}</caption>
        <thead>
          <tr><th scope="col">${t('chart.day')}</th>${this.series.map((s) => html`<th scope="col">${s.label}</th>`)}</tr>
        </thead>
        <tbody>
          ${this.days.map(
            (day, i) => html`<tr>
              <th scope="row">${day}</th>
              ${this.series.map((s) => html`<td>${s.values[i] === null || s.values[i] === undefined ? '—' : this.format(s.values[i]!)}</td>`)}
            </tr>`,
          )}
        </tbody>
      </table>
    </figure>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    // Swatch colours through the CSSOM: the dashboard's CSP allows no style attributes.
    for (const swatch of this.renderRoot.querySelectorAll<HTMLElement>('.swatch')) swatch.style.background = swatch.dataset.color ?? '';
    if (changed.has('days') || changed.has('series') || changed.has('height')) {
      this.draw();
      // the plot's host is new when the chart comes back from "No data yet"
      this.resize?.disconnect();
      if (this.plotHost) this.resize?.observe(this.plotHost);
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.resize = new ResizeObserver(() => this.plot?.setSize({ width: this.width(), height: this.height }));
    if (this.hasUpdated) {
      // Moved in the page: disconnecting destroyed the plot.
      if (this.plotHost) this.resize.observe(this.plotHost);
      this.draw();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resize?.disconnect();
    this.plot?.destroy();
    this.plot = null;
  }

  private width(): number {
    return Math.max(240, Math.floor(this.plotHost?.clientWidth || 600));
  }

  private draw(): void {
    this.plot?.destroy();
    this.plot = null;
    if (this.empty || !this.plotHost) return;
    const xs = this.days.map((day) => Date.parse(day) / 1000);
    const format = this.format;
    this.plot = new uPlot(
      {
        width: this.width(),
        height: this.height,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1] } },
        axes: [
          { stroke: '#4d5560', grid: { stroke: '#e5e7eb' } },
          { stroke: '#4d5560', grid: { stroke: '#e5e7eb' }, values: (_u, ticks) => ticks.map((t) => format(t)), size: 64 },
        ],
        series: [{}, ...this.series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: true, size: 6 } }))],
      },
      [xs, ...this.series.map((s) => s.values)] as uPlot.AlignedData,
      this.plotHost,
    );
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-chart': AicdChart;
  }
}
