import { LitElement, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { AiChatClient, WebhookDelivery, WebhookEventType, WebhookSubscription } from '../../client/index.js';
import type { Session } from '../api.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import { secretOnce } from '../ui/secret-once.js';
import { errorMessage } from '../ui/errors.js';
import { field } from '../ui/field.js';
import { FormState } from '../ui/form-state.js';
import { formatDate } from '../ui/format.js';
import pageStyles from '../ui/page.styles.js';

/** Every event type, each with its label: a `Record`, so a type the wire contract adds cannot be left out. */
const EVENT_LABELS: Record<WebhookEventType, string> = {
  'conversation.started': 'A conversation starts',
  'message.created': 'A message is stored (visitor, bot or operator)',
  'handoff.requested': 'A visitor asks for a person',
  'handoff.taken': 'An operator takes a conversation',
  'handoff.closed': 'A conversation is closed',
  'feedback.given': 'A visitor rates an answer',
  'csat.given': 'A visitor rates a conversation (satisfaction, 1–5)',
};
const EVENTS = Object.entries(EVENT_LABELS) as [WebhookEventType, string][];

const FIELDS = ['url', 'events', 'description'] as const;

/**
 * Outgoing webhooks: subscribe a URL to events (the signing secret shown once, with a copy
 * button), enable or disable, delete, send a test event, and each subscription's delivery log with
 * a Redeliver button. The secret lives in this element's state until dismissed, never in storage.
 */
@customElement('aicd-webhooks-page')
export class AicdWebhooksPage extends LitElement {
  static override styles = pageStyles;

  @property({ attribute: false }) client!: AiChatClient;
  @property({ attribute: false }) session!: Session;

  @state() private hooks: WebhookSubscription[] | null = null;
  @state() private loadError = '';
  @state() private url = '';
  @state() private description = '';
  @state() private events = new Set<WebhookEventType>(['message.created']);
  @state() private secret: { hook: WebhookSubscription; secret: string } | null = null;
  @state() private notice = '';
  /** The subscription whose delivery log is open, and that log. */
  @state() private open: { hook: WebhookSubscription; deliveries: WebhookDelivery[] | null } | null = null;
  @query('aicd-confirm-dialog') private confirm!: AicdConfirmDialog;
  private readonly form = new FormState(this);

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.hooks = (await this.client.webhooks.list()).data.items;
      this.loadError = '';
    } catch (error) {
      this.loadError = errorMessage(error);
    }
  }

  override render() {
    return html`<h1>Webhooks</h1>
      <p class="hint">
        The service posts events to your URLs, signed as the Standard Webhooks specification says. Verify each request with its signing secret
        (<code>standardwebhooks</code> on npm); failed deliveries are retried for about a day.
      </p>
      <p class="status" role="status">${this.notice}</p>
      ${this.loadError ? html`<p class="error" role="alert">${this.loadError}</p>` : nothing} ${this.secret ? this.renderSecret(this.secret) : nothing}
      ${this.renderCreate()}
      <h2>Subscriptions</h2>
      ${this.renderList()} ${this.open ? this.renderLog(this.open.hook, this.open.deliveries) : nothing}
      <aicd-confirm-dialog></aicd-confirm-dialog>`;
  }

  private renderSecret({ hook, secret }: { hook: WebhookSubscription; secret: string }) {
    return secretOnce({
      title: `Signing secret for ${hook.url}`,
      note: 'Copy it now: it is shown only this once. Rotating it (API) gives a new one.',
      secret,
      copyLabel: 'Copy the signing secret',
      onDismiss: () => (this.secret = null),
    });
  }

  private renderCreate() {
    return html`<form @submit=${this.create} novalidate>
      <fieldset>
        <legend>New subscription</legend>
        ${field({ name: 'url', label: 'URL', type: 'url', value: this.url, error: this.form.errors.url, hint: 'A public https: address of your server.', onInput: (v) => (this.url = v) })}
        ${field({ name: 'description', label: 'Description', value: this.description, error: this.form.errors.description, hint: 'Optional, e.g. “CRM sync”.', onInput: (v) => (this.description = v) })}
        <fieldset aria-describedby="events-error">
          <legend>Events</legend>
          ${EVENTS.map(
            ([event, label]) => html`<label
              ><input type="checkbox" name="events" value=${event} .checked=${this.events.has(event)} @change=${(e: Event) => this.toggle(event, (e.target as HTMLInputElement).checked)} />
              <code>${event}</code>: ${label}</label
            >`,
          )}
          <p class="error" id="events-error">${this.form.errors.events ?? ''}</p>
        </fieldset>
        <p class="error" role="alert">${this.form.formError}</p>
        <button class="primary" type="submit" ?disabled=${this.form.saving}>Subscribe</button>
      </fieldset>
    </form>`;
  }

  private renderList() {
    if (!this.hooks) return html`<p class="status">Loading…</p>`;
    if (!this.hooks.length) return html`<p>No webhooks yet.</p>`;
    return html`<table>
      <caption class="visually-hidden">Webhook subscriptions of this account</caption>
      <thead>
        <tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>
      </thead>
      <tbody>
        ${this.hooks.map(
          (hook) => html`<tr>
            <td><code>${hook.url}</code>${hook.description ? html`<br /><span class="hint">${hook.description}</span>` : nothing}</td>
            <td>${hook.events.join(', ')}</td>
            <td>
              ${hook.enabled ? 'Enabled' : 'Disabled'}${hook.disabled_reason ? html`<br /><span class="hint">${hook.disabled_reason}</span>` : nothing}${hook.failing_since
                ? html`<br /><span class="hint">Failing since ${formatDate(hook.failing_since)}</span>`
                : nothing}
            </td>
            <td class="toolbar">
              <button type="button" aria-label=${`Deliveries to ${hook.url}`} @click=${() => this.showLog(hook)}>Deliveries</button>
              <button type="button" aria-label=${`Send test event to ${hook.url}`} ?disabled=${!hook.enabled} @click=${() => this.sendTest(hook)}>Send test event</button>
              <button type="button" aria-label=${`${hook.enabled ? 'Disable' : 'Enable'} ${hook.url}`} @click=${() => this.setEnabled(hook, !hook.enabled)}>${hook.enabled ? 'Disable' : 'Enable'}</button>
              <button type="button" class="danger" aria-label=${`Delete ${hook.url}`} @click=${() => this.removeHook(hook)}>Delete</button>
            </td>
          </tr>`,
        )}
      </tbody>
    </table>`;
  }

  private renderLog(hook: WebhookSubscription, deliveries: WebhookDelivery[] | null) {
    return html`<section aria-labelledby="log-title">
      <h2 id="log-title">Deliveries to ${hook.url}</h2>
      <div class="toolbar"><button type="button" @click=${() => this.showLog(hook)}>Refresh</button></div>
      ${!deliveries
        ? html`<p class="status">Loading…</p>`
        : !deliveries.length
          ? html`<p>No deliveries yet.</p>`
          : html`<table>
              <caption class="visually-hidden">Latest deliveries, newest first</caption>
              <thead>
                <tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Tries</th><th scope="col">Last answer</th><th scope="col">When</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>
              </thead>
              <tbody>
                ${deliveries.map(
                  (d) => html`<tr>
                    <td><code>${d.type}</code><br /><span class="hint">${d.event_id}</span></td>
                    <td>${d.status}</td>
                    <td>${d.attempts}</td>
                    <td>${d.last_status ?? '—'}${d.last_error ? html`<br /><span class="hint">${d.last_error}</span>` : nothing}</td>
                    <td>${d.delivered_at ? `Delivered ${formatDate(d.delivered_at)}` : d.next_attempt_at ? `Next try ${formatDate(d.next_attempt_at)}` : formatDate(d.occurred_at)}</td>
                    <td><button type="button" aria-label=${`Redeliver ${d.type} ${d.event_id}`} ?disabled=${!hook.enabled} @click=${() => this.redeliver(hook, d)}>Redeliver</button></td>
                  </tr>`,
                )}
              </tbody>
            </table>`}
    </section>`;
  }

  private toggle(event: WebhookEventType, on: boolean): void {
    const events = new Set(this.events);
    if (on) events.add(event);
    else events.delete(event);
    this.events = events;
  }

  private async create(event: Event): Promise<void> {
    event.preventDefault();
    this.notice = '';
    const created = await this.form.submit(FIELDS, async () => (await this.client.webhooks.create({ url: this.url, events: [...this.events], description: this.description })).data);
    if (!created) return;
    const { secret, ...hook } = created;
    this.secret = { hook, secret };
    this.url = '';
    this.description = '';
    await this.load();
  }

  private async act(what: () => Promise<unknown>, done: string): Promise<void> {
    try {
      await what();
      this.notice = done;
      await this.load();
    } catch (error) {
      this.notice = errorMessage(error);
    }
  }

  private async showLog(hook: WebhookSubscription): Promise<void> {
    this.open = { hook, deliveries: this.open?.hook.id === hook.id ? this.open.deliveries : null };
    try {
      this.open = { hook, deliveries: (await this.client.webhooks.deliveries(hook.id, { limit: 50 })).data.items };
    } catch (error) {
      this.notice = errorMessage(error);
    }
  }

  private sendTest(hook: WebhookSubscription): Promise<void> {
    return this.act(async () => {
      await this.client.webhooks.test(hook.id);
      await this.showLog(hook);
    }, `A test event is on its way to ${hook.url}.`);
  }

  private setEnabled(hook: WebhookSubscription, enabled: boolean): Promise<void> {
    return this.act(() => this.client.webhooks.update(hook.id, { enabled }), `${hook.url} ${enabled ? 'enabled' : 'disabled'}.`);
  }

  private redeliver(hook: WebhookSubscription, delivery: WebhookDelivery): Promise<void> {
    return this.act(async () => {
      await this.client.webhooks.redeliver(hook.id, delivery.id);
      await this.showLog(hook);
    }, `${delivery.type} is sent again.`);
  }

  private async removeHook(hook: WebhookSubscription): Promise<void> {
    const yes = await this.confirm.ask({ title: 'Delete this webhook?', message: `${hook.url} receives no more events, and its delivery log is deleted.`, confirmLabel: 'Delete webhook' });
    if (!yes) return;
    if (this.open?.hook.id === hook.id) this.open = null;
    await this.act(() => this.client.webhooks.delete(hook.id), `${hook.url} deleted.`);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-webhooks-page': AicdWebhooksPage;
  }
}
