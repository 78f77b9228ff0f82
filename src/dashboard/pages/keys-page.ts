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
    return html`<h1>API keys</h1>
      <p class="hint">Keys call the <code>/v1</code> API from your servers and token proxies. Never put one in a web page.</p>
      <p class="status" role="status">${this.notice}</p>
      ${this.loadError ? html`<p class="error" role="alert">${this.loadError}</p>` : nothing}
      ${this.secret ? this.renderSecret(this.secret) : nothing} ${this.owner ? this.renderCreate() : html`<p>Only owners can create or revoke keys.</p>`}
      <h2>Keys</h2>
      ${this.renderList()}
      <h2>Plan</h2>
      ${this.renderPlan()}
      <aicd-confirm-dialog></aicd-confirm-dialog>`;
  }

  private renderSecret({ key, secret }: { key: ApiKey; secret: string }) {
    return secretOnce({
      title: `Your new key “${key.label}”`,
      note: 'Copy it now: it is shown only this once, and the service keeps only its hash.',
      secret,
      copyLabel: 'Copy the key',
      onDismiss: () => (this.secret = null),
    });
  }

  private renderCreate() {
    return html`<form @submit=${this.create} novalidate>
      <fieldset>
        <legend>New key</legend>
        ${field({ name: 'label', label: 'Label', value: this.label, error: this.form.errors.label, hint: 'What it is for, e.g. “production proxy”.', onInput: (v) => (this.label = v) })}
        ${field({
          name: 'scope',
          label: 'Scope',
          value: this.scope,
          error: this.form.errors.scope,
          options: [
            ['full', 'Full: every request'],
            ['read_only', 'Read-only: GET requests only'],
          ],
          onInput: (v) => (this.scope = v as KeyScope),
        })}
        ${field({
          name: 'expires_at',
          label: 'Expires',
          type: 'datetime-local',
          value: this.expiresAt,
          error: this.form.errors.expires_at,
          hint: 'Optional, your local time. Empty: never.',
          onInput: (v) => (this.expiresAt = v),
        })}
        <p class="error" role="alert">${this.form.formError}</p>
        <button class="primary" type="submit" ?disabled=${this.form.saving}>Create key</button>
      </fieldset>
    </form>`;
  }

  private renderList() {
    if (!this.keys) return html`<p class="status">Loading…</p>`;
    if (!this.keys.length) return html`<p>No keys yet.</p>`;
    return html`<table>
      <caption class="visually-hidden">API keys of this account</caption>
      <thead>
        <tr><th scope="col">Key</th><th scope="col">Label</th><th scope="col">Scope</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th>${this.owner ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : nothing}</tr>
      </thead>
      <tbody>
        ${this.keys.map(
          (key) => html`<tr>
            <td><code>${key.prefix}…</code></td>
            <td>${key.label ?? '—'}${key.managed ? html` <span class="hint">(the service's own)</span>` : nothing}</td>
            <td>${key.scope === 'read_only' ? 'Read-only' : 'Full'}</td>
            <td>${formatDate(key.created_at)}</td>
            <td>${key.expires_at ? formatDate(key.expires_at) : 'Never'}${key.status === 'expired' ? html` <strong>(expired)</strong>` : nothing}</td>
            <td>${key.last_used_at ? formatDate(key.last_used_at) : 'Never'}</td>
            ${this.owner
              ? html`<td><button type="button" class="danger" aria-label=${`Revoke key ${key.prefix}… ${key.label ?? ''}`.trim()} @click=${() => this.revoke(key)}>Revoke</button></td>`
              : nothing}
          </tr>`,
        )}
      </tbody>
    </table>`;
  }

  private renderPlan() {
    const plan = this.plan;
    if (!plan) return html`<p class="status">Loading…</p>`;
    const { limit, window_seconds, source } = plan.rate_limit;
    const { used, remaining, reset } = plan.current_window;
    return html`<p>
        ${limit} requests per ${window_seconds} seconds
        (${source === 'account' ? "this account's own plan" : "the service's default plan"}), shared by every key and by this dashboard.
      </p>
      <p>
        This window: <strong>${used}</strong> used, <strong>${remaining}</strong> left${reset ? html`, until ${formatDate(new Date(reset * 1000).toISOString())}` : nothing}.
        <meter min="0" max=${limit} value=${used} aria-label="Requests used in this window">${used} of ${limit}</meter>
      </p>
      <button type="button" @click=${this.load}>Refresh</button>`;
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
      title: 'Revoke this key?',
      message: `Key ${key.prefix}… (${key.label ?? 'no label'}) stops working within a second, everywhere. This cannot be undone.`,
      confirmLabel: 'Revoke key',
    });
    if (!yes) return;
    try {
      await this.api.revokeKey(key.id);
      this.notice = `Key ${key.prefix}… revoked.`;
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
