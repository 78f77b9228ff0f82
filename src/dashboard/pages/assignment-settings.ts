import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AssignmentOperator } from '../../client/index.js';
import { api as defaultApi, type DashboardApi } from '../api.js';
import { errorMessage } from '../ui/errors.js';
import { LocaleController, t } from '../i18n/i18n.js';
import { PRESENCE_LABELS } from '../ui/format.js';
import pageStyles from '../ui/page.styles.js';

/**
 * The account's assignment settings at the bottom of the inbox (`GET/PUT /v1/assignment`):
 * automatic assignment on or off, and each operator's capacity (open conversations automatic
 * assignment gives them at most), shown with their presence and load.
 */
@customElement('aicd-assignment-settings')
export class AicdAssignmentSettings extends LitElement {
  static override styles = [
    pageStyles,
    css`
      input[type='number'] {
        width: 5rem;
      }
      .check {
        display: flex;
        gap: 0.5rem;
        align-items: center;
      }
    `,
  ];

  @property({ attribute: false }) api: DashboardApi = defaultApi;

  @state() private auto = false;
  private readonly i18n = new LocaleController(this);
  @state() private operators: AssignmentOperator[] = [];
  /** Capacities as typed, by operator id. */
  @state() private capacities = new Map<string, number>();
  @state() private notice = '';
  @state() private error = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  override render() {
    return html`<section aria-labelledby="assignment-heading">
      <h2 id="assignment-heading">${t('assign.title')}</h2>
      <form @submit=${this.save}>
        <p class="check">
          <input id="auto-assign" type="checkbox" .checked=${this.auto} @change=${(e: Event) => (this.auto = (e.target as HTMLInputElement).checked)} />
          <label for="auto-assign">${t('assign.auto')}</label>
        </p>
        <table>
          <caption>${t('assign.caption')}</caption>
          <thead><tr><th scope="col">${t('overview.operator')}</th><th scope="col">${t('common.status')}</th><th scope="col">${t('assign.open')}</th><th scope="col">${t('assign.capacity')}</th></tr></thead>
          <tbody>
            ${this.operators.map(
              (o) => html`<tr>
                <th scope="row">${o.name}</th>
                <td>${PRESENCE_LABELS[o.presence]}</td>
                <td>${o.open}</td>
                <td><input type="number" min="0" max="100" required aria-label=${t('assign.capacityOf', { name: o.name })} .value=${String(this.capacities.get(o.id) ?? o.capacity)} @input=${(e: Event) => this.setCapacity(o.id, (e.target as HTMLInputElement).valueAsNumber)} /></td>
              </tr>`,
            )}
          </tbody>
        </table>
        <button type="submit">${t('assign.save')}</button>
      </form>
      <p role="status">${this.notice}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
    </section>`;
  }

  private setCapacity(id: string, value: number): void {
    this.capacities = new Map(this.capacities).set(id, value);
  }

  private async load(): Promise<void> {
    try {
      const { data } = await this.api.client.assignment.settings();
      [this.auto, this.operators, this.capacities] = [data.auto, data.operators, new Map()];
    } catch (error) {
      this.error = errorMessage(error);
    }
  }

  private async save(event: Event): Promise<void> {
    event.preventDefault();
    const capacities = [...this.capacities].filter(([id, capacity]) => this.operators.find((o) => o.id === id)?.capacity !== capacity).map(([operator_id, capacity]) => ({ operator_id, capacity }));
    try {
      const { data } = await this.api.client.assignment.updateSettings({ auto: this.auto, ...(capacities.length && { capacities }) });
      [this.auto, this.operators, this.capacities] = [data.auto, data.operators, new Map()];
      this.error = '';
      this.notice = data.auto ? t('assign.savedAuto') : t('assign.savedManual');
    } catch (error) {
      this.notice = '';
      this.error = errorMessage(error);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-assignment-settings': AicdAssignmentSettings;
  }
}
