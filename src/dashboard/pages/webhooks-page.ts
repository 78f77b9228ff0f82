import { LitElement, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { AiChatClient, WebhookDelivery, WebhookDeliveryStatus, WebhookEventType, WebhookSubscription } from '../../client/index.js';
import type { Session } from '../api.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import { secretOnce } from '../ui/secret-once.js';
import { errorMessage } from '../ui/errors.js';
import { field } from '../ui/field.js';
import { FormState } from '../ui/form-state.js';
import { formatDate, formatRelative } from '../ui/format.js';
import { labels, LocaleController, t, tParts } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';

/** Every event type, each with its label: a `Record`, so a type the wire contract adds cannot be left out. */
const EVENT_LABELS = labels<WebhookEventType>({
  'conversation.started': 'hooks.conversationStarted',
  'message.created': 'hooks.messageCreated',
  'handoff.requested': 'hooks.handoffRequested',
  'handoff.taken': 'hooks.handoffTaken',
  'handoff.closed': 'hooks.handoffClosed',
  'feedback.given': 'hooks.feedbackGiven',
  'csat.given': 'hooks.csatGiven',
});
const EVENTS = Object.keys(EVENT_LABELS) as WebhookEventType[];
const DELIVERY_STATUS = labels<WebhookDeliveryStatus>({ pending: 'hooks.pending', delivered: 'hooks.delivered', failed: 'hooks.failed' });

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
  private readonly i18n = new LocaleController(this);

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
    return html`<h1>${t('nav.webhooks')}</h1>
      <p class="hint">
        ${tParts('hooks.intro', { library: html`<code>standardwebhooks</code>` })}
      </p>
      <p class="status" role="status">${this.notice}</p>
      ${this.loadError ? html`<p class="error" role="alert">${this.loadError}</p>` : nothing} ${this.secret ? this.renderSecret(this.secret) : nothing}
      ${this.renderCreate()}
      <h2>${t('hooks.subscriptions')}</h2>
      ${this.renderList()} ${this.open ? this.renderLog(this.open.hook, this.open.deliveries) : nothing}
      <aicd-confirm-dialog></aicd-confirm-dialog>`;
  }

  private renderSecret({ hook, secret }: { hook: WebhookSubscription; secret: string }) {
    return secretOnce({
      title: t('hooks.secretTitle', { url: hook.url }),
      note: t('hooks.secretNote'),
      secret,
      copyLabel: t('hooks.copySecret'),
      onDismiss: () => (this.secret = null),
    });
  }

  private renderCreate() {
    return html`<form @submit=${this.create} novalidate>
      <fieldset>
        <legend>${t('hooks.newSubscription')}</legend>
        ${field({ name: 'url', label: t('hooks.url'), type: 'url', value: this.url, error: this.form.errors.url, hint: t('hooks.urlHint'), onInput: (v) => (this.url = v) })}
        ${field({ name: 'description', label: t('common.description'), value: this.description, error: this.form.errors.description, hint: t('hooks.descriptionHint'), onInput: (v) => (this.description = v) })}
        <fieldset aria-describedby="events-error">
          <legend>${t('hooks.events')}</legend>
          ${EVENTS.map(
            (event) => html`<label
              ><input type="checkbox" name="events" value=${event} .checked=${this.events.has(event)} @change=${(e: Event) => this.toggle(event, (e.target as HTMLInputElement).checked)} />
              <code>${event}</code>: ${EVENT_LABELS[event]}</label
            >`,
          )}
          <p class="error" id="events-error">${this.form.errors.events ?? ''}</p>
        </fieldset>
        <p class="error" role="alert">${this.form.formError}</p>
        <button class="primary" type="submit" ?disabled=${this.form.saving}>${t('hooks.subscribe')}</button>
      </fieldset>
    </form>`;
  }

  private renderList() {
    if (!this.hooks) return html`<p class="status">${t('list.loading')}</p>`;
    if (!this.hooks.length) return html`<p>${t('hooks.none')}</p>`;
    return html`<table>
      <caption class="visually-hidden">${t('hooks.caption')}</caption>
      <thead>
        <tr><th scope="col">${t('hooks.url')}</th><th scope="col">${t('hooks.events')}</th><th scope="col">${t('hooks.state')}</th><th scope="col"><span class="visually-hidden">${t('keys.actions')}</span></th></tr>
      </thead>
      <tbody>
        ${this.hooks.map(
          (hook) => html`<tr>
            <td><code>${hook.url}</code>${hook.description ? html`<br /><span class="hint">${hook.description}</span>` : nothing}</td>
            <td>${hook.events.join(', ')}</td>
            <td>
              ${t(hook.enabled ? 'hooks.enabled' : 'hooks.disabled')}${hook.disabled_reason ? html`<br /><span class="hint">${hook.disabled_reason}</span>` : nothing}${hook.failing_since
                ? html`<br /><span class="hint">${t('hooks.failingSince', { since: formatDate(hook.failing_since) })}</span>`
                : nothing}
            </td>
            <td class="toolbar">
              <button type="button" aria-label=${t('hooks.deliveriesTo', { url: hook.url })} @click=${() => this.showLog(hook)}>${t('hooks.deliveries')}</button>
              <button type="button" aria-label=${t('hooks.testTo', { url: hook.url })} ?disabled=${!hook.enabled} @click=${() => this.sendTest(hook)}>${t('hooks.test')}</button>
              <button type="button" aria-label=${t(hook.enabled ? 'hooks.disableUrl' : 'hooks.enableUrl', { url: hook.url })} @click=${() => this.setEnabled(hook, !hook.enabled)}>${t(hook.enabled ? 'hooks.disable' : 'hooks.enable')}</button>
              <button type="button" class="danger" aria-label=${t('list.deleteItem', { name: hook.url })} @click=${() => this.removeHook(hook)}>${t('list.delete')}</button>
            </td>
          </tr>`,
        )}
      </tbody>
    </table>`;
  }

  private renderLog(hook: WebhookSubscription, deliveries: WebhookDelivery[] | null) {
    return html`<section aria-labelledby="log-title">
      <h2 id="log-title">${t('hooks.deliveriesTo', { url: hook.url })}</h2>
      <div class="toolbar"><button type="button" @click=${() => this.showLog(hook)}>${t('keys.refresh')}</button></div>
      ${!deliveries
        ? html`<p class="status">${t('list.loading')}</p>`
        : !deliveries.length
          ? html`<p>${t('hooks.noDeliveries')}</p>`
          : html`<table>
              <caption class="visually-hidden">${t('hooks.logCaption')}</caption>
              <thead>
                <tr><th scope="col">${t('hooks.event')}</th><th scope="col">${t('common.status')}</th><th scope="col">${t('hooks.tries')}</th><th scope="col">${t('hooks.lastAnswer')}</th><th scope="col">${t('hooks.when')}</th><th scope="col"><span class="visually-hidden">${t('keys.actions')}</span></th></tr>
              </thead>
              <tbody>
                ${deliveries.map(
                  (d) => html`<tr>
                    <td><code>${d.type}</code><br /><span class="hint">${d.event_id}</span></td>
                    <td>${DELIVERY_STATUS[d.status]}</td>
                    <td>${d.attempts}</td>
                    <td>${d.last_status ?? t('format.none')}${d.last_error ? html`<br /><span class="hint">${d.last_error}</span>` : nothing}</td>
                    <td>${d.delivered_at ? t('hooks.deliveredAt', { when: formatDate(d.delivered_at) }) : d.next_attempt_at ? t('hooks.nextTry', { when: formatRelative(d.next_attempt_at) }) : formatDate(d.occurred_at)}</td>
                    <td><button type="button" aria-label=${t('hooks.redeliverItem', { type: d.type, id: d.event_id })} ?disabled=${!hook.enabled} @click=${() => this.redeliver(hook, d)}>${t('hooks.redeliver')}</button></td>
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
    }, t('hooks.testSent', { url: hook.url }));
  }

  private setEnabled(hook: WebhookSubscription, enabled: boolean): Promise<void> {
    return this.act(() => this.client.webhooks.update(hook.id, { enabled }), t(enabled ? 'hooks.enabledNotice' : 'hooks.disabledNotice', { url: hook.url }));
  }

  private redeliver(hook: WebhookSubscription, delivery: WebhookDelivery): Promise<void> {
    return this.act(async () => {
      await this.client.webhooks.redeliver(hook.id, delivery.id);
      await this.showLog(hook);
    }, t('hooks.redelivered', { type: delivery.type }));
  }

  private async removeHook(hook: WebhookSubscription): Promise<void> {
    const yes = await this.confirm.ask({ title: t('hooks.deleteTitle'), message: t('hooks.deleteMessage', { url: hook.url }), confirmLabel: t('hooks.delete') });
    if (!yes) return;
    if (this.open?.hook.id === hook.id) this.open = null;
    await this.act(() => this.client.webhooks.delete(hook.id), t('hooks.deleted', { url: hook.url }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-webhooks-page': AicdWebhooksPage;
  }
}
