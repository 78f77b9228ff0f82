import { LitElement, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { ApiKey, DashboardApi, KeyScope, Plan, Session } from '../api.js';
import { api as defaultApi } from '../api.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import { secretOnce } from '../ui/secret-once.js';
import { errorMessage } from '../ui/errors.js';
import { field } from '../ui/field.js';
import { FormState } from '../ui/form-state.js';
import { formatDate } from '../ui/format.js';
import { formatNumber, LocaleController, t, tParts } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';

const FIELDS = ['label', 'scope', 'expires_at'] as const;

/**
 * API keys and the plan. Owners create keys (label, scope, optional expiry), see the secret once
 * with a copy button, and revoke keys; members see the list only. The secret lives in this
 * element's state until the owner dismisses it or leaves the page, never in any storage.
 */
@customElement('aicd-keys-page')
export class AicdKeysPage extends LitElement {
  static override styles = pageStyles;

  @property({ attribute: false }) session!: Session;
  @property({ attribute: false }) api: DashboardApi = defaultApi;

  @state() private keys: ApiKey[] | null = null;
  @state() private plan: Plan | null = null;
  @state() private loadError = '';
  @state() private label = '';
  @state() private scope: KeyScope = 'full';
  /** `datetime-local` value; empty: never expires. */
  @state() private expiresAt = '';
  @state() private secret: { key: ApiKey; secret: string } | null = null;
  @state() private notice = '';
  @query('aicd-confirm-dialog') private confirm!: AicdConfirmDialog;
  private readonly form = new FormState(this);
  private readonly i18n = new LocaleController(this);

  private get owner(): boolean {
    return this.session?.user.role === 'owner';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const [keys, plan] = await Promise.all([this.api.keys(), this.api.plan()]);
      this.keys = keys;
      this.plan = plan;
      this.loadError = '';
    } catch (error) {
      this.loadError = errorMessage(error);
    }
  }

  override render() {
    return html`<h1>${t('nav.keys')}</h1>
      <p class="hint">${tParts('keys.intro', { api: html`<code>/v1</code>` })}</p>
      <p class="status" role="status">${this.notice}</p>
      ${this.loadError ? html`<p class="error" role="alert">${this.loadError}</p>` : nothing}
      ${this.secret ? this.renderSecret(this.secret) : nothing} ${this.owner ? this.renderCreate() : html`<p>${t('keys.ownersOnly')}</p>`}
      <h2>${t('keys.keys')}</h2>
      ${this.renderList()}
      <h2>${t('keys.plan')}</h2>
      ${this.renderPlan()}
      <aicd-confirm-dialog></aicd-confirm-dialog>`;
  }

  private renderSecret({ key, secret }: { key: ApiKey; secret: string }) {
    return secretOnce({
      title: t('keys.newKeyTitle', { label: key.label ?? '' }),
      note: t('keys.newKeyNote'),
      secret,
      copyLabel: t('keys.copy'),
      onDismiss: () => (this.secret = null),
    });
  }

  private renderCreate() {
    return html`<form @submit=${this.create} novalidate>
      <fieldset>
        <legend>${t('keys.newKey')}</legend>
        ${field({ name: 'label', label: t('keys.label'), value: this.label, error: this.form.errors.label, hint: t('keys.labelHint'), onInput: (v) => (this.label = v) })}
        ${field({
          name: 'scope',
          label: t('keys.scope'),
          value: this.scope,
          error: this.form.errors.scope,
          options: [
            ['full', t('keys.scopeFull')],
            ['read_only', t('keys.scopeReadOnly')],
          ],
          onInput: (v) => (this.scope = v as KeyScope),
        })}
        ${field({
          name: 'expires_at',
          label: t('keys.expires'),
          type: 'datetime-local',
          value: this.expiresAt,
          error: this.form.errors.expires_at,
          hint: t('keys.expiresHint'),
          onInput: (v) => (this.expiresAt = v),
        })}
        <p class="error" role="alert">${this.form.formError}</p>
        <button class="primary" type="submit" ?disabled=${this.form.saving}>${t('keys.create')}</button>
      </fieldset>
    </form>`;
  }

  private renderList() {
    if (!this.keys) return html`<p class="status">${t('list.loading')}</p>`;
    if (!this.keys.length) return html`<p>${t('keys.none')}</p>`;
    return html`<table>
      <caption class="visually-hidden">${t('keys.caption')}</caption>
      <thead>
        <tr>
          <th scope="col">${t('keys.key')}</th><th scope="col">${t('keys.label')}</th><th scope="col">${t('keys.scope')}</th><th scope="col">${t('keys.created')}</th>
          <th scope="col">${t('keys.expires')}</th><th scope="col">${t('keys.lastUsed')}</th>${this.owner ? html`<th scope="col"><span class="visually-hidden">${t('keys.actions')}</span></th>` : nothing}
        </tr>
      </thead>
      <tbody>
        ${this.keys.map(
          (key) => html`<tr>
            <td><code>${key.prefix}…</code></td>
            <td>${key.label ?? t('format.none')}${key.managed ? html` <span class="hint">${t('keys.managed')}</span>` : nothing}</td>
            <td>${t(key.scope === 'read_only' ? 'keys.readOnly' : 'keys.full')}</td>
            <td>${formatDate(key.created_at)}</td>
            <td>${key.expires_at ? formatDate(key.expires_at) : t('keys.never')}${key.status === 'expired' ? html` <strong>${t('keys.expired')}</strong>` : nothing}</td>
            <td>${key.last_used_at ? formatDate(key.last_used_at) : t('keys.never')}</td>
            ${this.owner
              ? html`<td><button type="button" class="danger" aria-label=${t('keys.revokeItem', { prefix: key.prefix, label: key.label ?? '' }).trim()} @click=${() => this.revoke(key)}>${t('keys.revoke')}</button></td>`
              : nothing}
          </tr>`,
        )}
      </tbody>
    </table>`;
  }

  private renderPlan() {
    const plan = this.plan;
    if (!plan) return html`<p class="status">${t('list.loading')}</p>`;
    const { limit, window_seconds, source } = plan.rate_limit;
    const { used, remaining, reset } = plan.current_window;
    return html`<p>${t('keys.rate', { limit, seconds: window_seconds, plan: t(source === 'account' ? 'keys.ownPlan' : 'keys.defaultPlan') })}</p>
      <p>
        ${tParts(reset ? 'keys.windowUntil' : 'keys.window', {
          used: html`<strong>${formatNumber(used)}</strong>`,
          remaining: html`<strong>${formatNumber(remaining)}</strong>`,
          until: reset ? formatDate(new Date(reset * 1000).toISOString()) : '',
        })}
        <meter min="0" max=${limit} value=${used} aria-label=${t('keys.meter')}>${t('keys.meterText', { used, limit })}</meter>
      </p>
      <button type="button" @click=${this.load}>${t('keys.refresh')}</button>`;
  }

  private async create(event: Event): Promise<void> {
    event.preventDefault();
    this.notice = '';
    const local = this.expiresAt ? new Date(this.expiresAt) : null;
    const created = await this.form.submit(FIELDS, () =>
      this.api.createKey({
        label: this.label,
        scope: this.scope,
        expires_at: local && !Number.isNaN(local.getTime()) ? local.toISOString() : null,
      }),
    );
    if (!created) return;
    this.secret = created;
    this.label = '';
    this.expiresAt = '';
    this.scope = 'full';
    await this.load();
  }

  private async revoke(key: ApiKey): Promise<void> {
    const yes = await this.confirm.ask({
      title: t('keys.revokeTitle'),
      message: t('keys.revokeMessage', { prefix: key.prefix, label: key.label ?? t('keys.noLabel') }),
      confirmLabel: t('keys.revokeKey'),
    });
    if (!yes) return;
    try {
      await this.api.revokeKey(key.id);
      this.notice = t('keys.revoked', { prefix: key.prefix });
      if (this.secret?.key.id === key.id) this.secret = null;
      await this.load();
    } catch (error) {
      this.notice = errorMessage(error);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-keys-page': AicdKeysPage;
  }
}
