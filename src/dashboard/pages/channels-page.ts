import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { AiChatClient, Bot, ChannelConnection, ChannelPlatform } from '../../client/index.js';
import { client as dashboardClient } from '../api.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import '../ui/copy-button.js';
import { errorMessage } from '../ui/errors.js';
import { field } from '../ui/field.js';
import { FormState } from '../ui/form-state.js';
import { formatDate } from '../ui/format.js';
import { PagedList } from '../ui/paged-list.js';
import { pagedTable } from '../ui/paged-table.js';
import { LocaleController, t, tParts } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';
import { offeredPlatforms, PLATFORMS } from './channel-platforms.js';
import { ChannelTestController, type FollowedTest } from './channel-test.js';
import styles from './channels-page.styles.js';

/** An action's failure, shown in the section of the channel it was about. */
interface ActionError {
  platform: ChannelPlatform;
  message: string;
}

/**
 * A bot's channels on messaging platforms (`#/bots/<id>/channels`; `#/channels` lists the bots to
 * choose from). Each connected channel shows its health (last delivery, last reply, last error,
 * replies waiting), the webhook URL to paste into the platform with a copy button and a link to the
 * platform's steps, which credentials are saved (never their values), and its actions: change the
 * credentials, register or remove the webhook where the platform has an API for it, send a test
 * message through the outbox and follow it, and disconnect (asked first). The connect form shows
 * the fields of the chosen platform (channel-platforms.ts); secrets are write-only: typed, sent,
 * and cleared from the page once saved.
 */
@customElement('aicd-channels-page')
export class AicdChannelsPage extends LitElement {
  static override styles = [pageStyles, styles];

  private readonly form = new FormState(this);
  private readonly i18n = new LocaleController(this);
  private readonly tests = new ChannelTestController(this, () => this.client, () => void this.load());
  private readonly bots = new PagedList<Bot>(this, (cursor) => this.client.bots.list({ cursor, limit: 50 }).then((r) => r.data));

  @query('aicd-confirm-dialog') private confirm!: AicdConfirmDialog;
  @state() private bot: Bot | null = null;
  @state() private channels: ChannelConnection[] | null = null;
  @state() private platforms: ChannelPlatform[] = [];
  @state() private loadError = '';
  @state() private notice = '';
  /** The platform the connect form is for ('': none chosen yet). */
  @state() private platform: ChannelPlatform | '' = '';
  /** The connect form's values; secrets live here only until they are saved. */
  @state() private values: Record<string, string> = {};
  @state() private actionError: ActionError | null = null;
  /** The test message form's values, per platform. */
  @state() private testInput: Partial<Record<ChannelPlatform, { chat: string; text: string }>> = {};

  /** The /v1 client; the signed-in session's unless a host or a test passes another. */
  @property({ attribute: false }) client: AiChatClient = dashboardClient;
  /** From the route: the bot's id; empty: the page lists the bots to choose from. */
  @property({ attribute: false }) botId = '';

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('botId') && !changed.has('client')) return;
    this.bot = null;
    this.channels = null;
    this.platform = '';
    this.values = {};
    this.actionError = null;
    this.notice = '';
    this.tests.reset();
    this.form.reset();
    if (this.botId) void this.load();
    else void this.bots.reload();
  }

  private async load(): Promise<void> {
    const id = this.botId;
    try {
      const [bot, list] = await Promise.all([this.bot?.id === id ? this.bot : this.client.bots.get(id).then((r) => r.data), this.client.channels.list(id).then((r) => r.data)]);
      if (this.botId !== id) return;
      this.bot = bot;
      this.channels = list.items;
      this.platforms = offeredPlatforms(list.platforms);
      this.loadError = '';
    } catch (error) {
      if (this.botId === id) this.loadError = errorMessage(error);
    }
  }

  override render() {
    if (!this.botId) return this.renderBotChoice();
    const header = html`<p><a href=${`#/bots/${encodeURIComponent(this.botId)}`}>${t('ch.back')}</a></p>`;
    if (this.loadError) return html`${header}<h1>${t('nav.channels')}</h1><p class="error" role="alert">${this.loadError}</p>`;
    if (!this.bot || !this.channels) return html`${header}<h1>${t('nav.channels')}</h1><p class="status" role="status">${t('list.loading')}</p>`;
    return html`${header}
      <h1>${t('ch.of', { bot: this.bot.name })}</h1>
      <p class="hint">${t('ch.intro')}</p>
      <p class="status" role="status">${this.notice}</p>
      ${this.channels.length ? this.channels.map((channel) => this.renderChannel(channel)) : html`<p>${t('ch.none')}</p>`} ${this.renderConnect()}
      <aicd-confirm-dialog></aicd-confirm-dialog>`;
  }

  private renderBotChoice() {
    return html`<h1>${t('nav.channels')}</h1>
      <p class="hint">${t('ch.choose')}</p>
      ${pagedTable(this.bots, {
        caption: t('nav.bots'),
        empty: t('ch.noBots'),
        columns: [t('overview.bot'), t('common.status')],
        row: (bot) => html`<tr>
          <td><a href=${`#/bots/${encodeURIComponent(bot.id)}/channels`}>${t('ch.of', { bot: bot.name })}</a></td>
          <td>${t(`botStatus.${bot.status}`)}</td>
        </tr>`,
      })}`;
  }

  private renderChannel(channel: ChannelConnection) {
    const info = PLATFORMS[channel.type];
    if (!info) return nothing; // a platform this dashboard does not describe yet
    const { health } = channel;
    const headingId = `channel-${channel.type}`;
    const error = this.actionError?.platform === channel.type ? this.actionError.message : '';
    return html`<section class="channel" aria-labelledby=${headingId}>
      <h2 id=${headingId}>${info.label}</h2>
      <dl class="health">
        <dt>${t('ch.lastReceived')}</dt>
        <dd>${formatDate(health.last_received_at)}</dd>
        <dt>${t('ch.lastSent')}</dt>
        <dd>${formatDate(health.last_sent_at)}</dd>
        <dt>${t('ch.waiting')}</dt>
        <dd>${health.pending_replies}</dd>
        <dt>${t('ch.lastError')}</dt>
        <dd>${health.last_error ? t('ch.errorAt', { error: health.last_error, when: formatDate(health.last_error_at) }) : t('common.none')}</dd>
      </dl>
      <h3>${t('ch.webhookUrl')}</h3>
      <p class="hint">${t(info.webhookStep)}</p>
      <pre class="code"><code>${channel.webhook_url}</code></pre>
      <div class="toolbar">
        <aicd-copy-button .text=${channel.webhook_url} label=${t('ch.copyWebhook', { platform: info.label })}></aicd-copy-button>
        <p class="hint">${tParts('ch.steps', { platform: info.label, doc: html`<code class="doc">${info.docs}</code>` })}</p>
      </div>
      <h3>${t('ch.credentials')}</h3>
      <ul class="credentials">
        ${info.fields.map(
          (f) => html`<li>${t(f.label)}: ${f.secret ? t(channel.secrets_set[f.name] ? 'ch.saved' : 'ch.notSet') : channel.settings[f.name] || t('ch.notSet')}</li>`,
        )}
      </ul>
      <div class="toolbar">
        <button type="button" aria-label=${t('ch.changeOf', { platform: info.label })} @click=${() => this.edit(channel.type)}>${t('ch.change')}</button>
        ${info.webhookApi
          ? html`<button type="button" @click=${() => this.webhook(channel.type, 'register')}>${t('ch.register')}</button>
              <button type="button" @click=${() => this.webhook(channel.type, 'remove')}>${t('ch.removeWebhook')}</button>`
          : nothing}
        <button type="button" class="danger" aria-label=${t('ch.disconnectPlatform', { platform: info.label })} @click=${() => this.disconnect(channel.type)}>${t('ch.disconnect')}</button>
      </div>
      ${error ? html`<p class="error" role="alert">${error}</p>` : nothing} ${this.renderTest(channel.type)}
    </section>`;
  }

  private renderTest(platform: ChannelPlatform) {
    const info = PLATFORMS[platform];
    const input = this.testInput[platform] ?? { chat: '', text: '' };
    const set = (patch: Partial<typeof input>) => (this.testInput = { ...this.testInput, [platform]: { ...input, ...patch } });
    const test = this.tests.test?.platform === platform ? this.tests.test : null;
    return html`<form novalidate @submit=${(e: Event) => this.sendTest(e, platform)}>
      <fieldset>
        <legend>${t('ch.testTitle')}</legend>
        ${field({ name: `test-chat-${platform}`, label: t('ch.recipient'), value: input.chat, hint: t('ch.recipientHint', { hint: t(info.chatHint) }), onInput: (chat) => set({ chat }) })}
        ${field({ name: `test-text-${platform}`, label: t('ch.text'), value: input.text, hint: t('ch.textHint'), onInput: (text) => set({ text }) })}
        <button type="submit" ?disabled=${this.tests.active && !!test}>${t('ch.sendTest')}</button>
        ${test?.error ? html`<p class="error" role="alert">${test.error}</p>` : nothing}
        <p class="status" role="status">${test ? testOutcome(test) : ''}</p>
      </fieldset>
    </form>`;
  }

  private renderConnect() {
    const connected = new Set(this.channels?.map((c) => c.type));
    const choices = this.platforms.filter((p) => !connected.has(p) || p === this.platform);
    const editing = this.platform !== '' && connected.has(this.platform);
    if (!choices.length) return nothing;
    const info = this.platform ? PLATFORMS[this.platform] : null;
    const title = editing && info ? t('ch.changeTitle', { platform: info.label }) : t('ch.connectTitle');
    return html`<form novalidate @submit=${this.connect} aria-labelledby="connect-title">
      <h2 id="connect-title">${title}</h2>
      ${editing
        ? nothing
        : field({
            name: 'platform',
            label: t('ch.platform'),
            value: this.platform,
            options: [['', t('ch.choosePlatform')], ...choices.map((p) => [p, PLATFORMS[p].label] as const)],
            onInput: (platform) => this.choose(platform as ChannelPlatform | ''),
          })}
      ${info
        ? html`${info.fields.map((f) =>
              field({
                name: f.name,
                label: t(f.label),
                type: f.secret ? 'password' : 'text',
                value: this.values[f.name] ?? '',
                hint: f.secret && editing ? t('ch.secretSaved', { hint: t(f.hint) }) : t(f.hint),
                error: this.form.errors[f.name],
                onInput: (value) => (this.values = { ...this.values, [f.name]: value }),
              }),
            )}
            <p class="hint">${tParts('ch.secretsHint', { doc: html`<code class="doc">${info.docs}</code>` })}</p>`
        : nothing}
      ${this.form.formError ? html`<p class="error" role="alert">${this.form.formError}</p>` : nothing}
      <div class="toolbar">
        <button type="submit" class="primary" ?disabled=${!info || this.form.saving}>${t(editing ? 'common.save' : 'ch.connect')}</button>
        ${editing ? html`<button type="button" @click=${() => this.choose('')}>${t('confirm.cancel')}</button>` : nothing}
      </div>
    </form>`;
  }

  private choose(platform: ChannelPlatform | ''): void {
    this.platform = platform;
    this.values = {};
    this.form.reset();
  }

  /** Opens the form for a connected channel: its settings filled in, its secrets empty (write-only). */
  private async edit(platform: ChannelPlatform): Promise<void> {
    const channel = this.channels?.find((c) => c.type === platform);
    this.choose(platform);
    this.values = { ...channel?.settings };
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#connect-title ~ label input')?.focus();
  }

  private async connect(event: Event): Promise<void> {
    event.preventDefault();
    const platform = this.platform;
    if (!platform) return;
    const info = PLATFORMS[platform];
    const editing = this.channels?.some((c) => c.type === platform);
    // Only what was typed: an empty secret of a saved channel is kept by the service.
    const body = Object.fromEntries(info.fields.map((f) => [f.name, (this.values[f.name] ?? '').trim()]).filter(([, value]) => value !== ''));
    const saved = await this.form.submit(
      info.fields.map((f) => f.name),
      async () => (await this.client.channels.connect(this.botId, platform, body)).data,
    );
    if (!saved) return;
    this.choose('');
    await this.load();
    this.notice = editing ? t('ch.credentialsSaved', { platform: info.label }) : t('ch.connected', { platform: info.label, step: t(info.webhookStep) });
  }

  private async act(platform: ChannelPlatform, what: () => Promise<unknown>, done: string): Promise<void> {
    this.actionError = null;
    try {
      await what();
      await this.load(); // then the notice: it describes the page as it is after the action
      this.notice = done;
    } catch (error) {
      this.actionError = { platform, message: errorMessage(error) };
    }
  }

  private webhook(platform: ChannelPlatform, how: 'register' | 'remove'): Promise<void> {
    const label = PLATFORMS[platform].label;
    return how === 'register'
      ? this.act(platform, () => this.client.channels.registerWebhook(this.botId, platform), t('ch.registered', { platform: label }))
      : this.act(platform, () => this.client.channels.removeWebhook(this.botId, platform), t('ch.removed', { platform: label }));
  }

  private async disconnect(platform: ChannelPlatform): Promise<void> {
    const label = PLATFORMS[platform].label;
    const yes = await this.confirm.ask({
      title: t('ch.disconnectTitle', { platform: label }),
      message: t('ch.disconnectMessage', { platform: label }),
      confirmLabel: t('ch.disconnectPlatform', { platform: label }),
    });
    if (!yes) return;
    if (this.tests.test?.platform === platform) this.tests.reset();
    if (this.platform === platform) this.choose('');
    await this.act(platform, () => this.client.channels.disconnect(this.botId, platform), t('ch.disconnected', { platform: label }));
  }

  private async sendTest(event: Event, platform: ChannelPlatform): Promise<void> {
    event.preventDefault();
    const input = this.testInput[platform] ?? { chat: '', text: '' };
    const chat = input.chat.trim();
    const text = input.text.trim();
    await this.tests.send(this.botId, platform, { ...(chat && { chat }), ...(text && { text }) });
  }
}

/** What a followed test message's state means, in a sentence. */
function testOutcome({ message, error }: FollowedTest): string {
  if (!message) return error ? '' : t('ch.sending');
  const to = message.chat;
  switch (message.status) {
    case 'pending':
      return message.error ? t('ch.retrying', { to, error: message.error }) : t('ch.queued', { to });
    case 'sending':
      return t('ch.sendingTo', { to });
    case 'sent':
      return t('ch.sent', { to, when: formatDate(message.sent_at) });
    case 'failed':
      return t('ch.failed', { to, error: message.error ?? t('ch.refused') });
    case 'unconfirmed':
      return t('ch.unconfirmed', { to, error: message.error ?? t('ch.noAnswer') });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-channels-page': AicdChannelsPage;
  }
}
