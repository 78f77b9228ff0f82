import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { AiChatClient, Bot, ChannelConnection, ChannelPlatform, ChannelTestMessage } from '../../client/index.js';
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
    const header = html`<p><a href=${`#/bots/${encodeURIComponent(this.botId)}`}>Back to the bot</a></p>`;
    if (this.loadError) return html`${header}<h1>Channels</h1><p class="error" role="alert">${this.loadError}</p>`;
    if (!this.bot || !this.channels) return html`${header}<h1>Channels</h1><p class="status" role="status">Loading…</p>`;
    return html`${header}
      <h1>Channels of ${this.bot.name}</h1>
      <p class="hint">The bot answers on messaging platforms as it answers in the widget; an operator who takes a conversation in the inbox answers there too.</p>
      <p class="status" role="status">${this.notice}</p>
      ${this.channels.length ? this.channels.map((channel) => this.renderChannel(channel)) : html`<p>Not on any platform yet.</p>`} ${this.renderConnect()}
      <aicd-confirm-dialog></aicd-confirm-dialog>`;
  }

  private renderBotChoice() {
    return html`<h1>Channels</h1>
      <p class="hint">Choose a bot to connect it to Telegram, WhatsApp and other platforms.</p>
      ${pagedTable(this.bots, {
        caption: 'Bots',
        empty: 'No bots yet. Create one first.',
        columns: ['Bot', 'Status'],
        row: (bot) => html`<tr>
          <td><a href=${`#/bots/${encodeURIComponent(bot.id)}/channels`}>Channels of ${bot.name}</a></td>
          <td>${bot.status}</td>
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
        <dt>Last message received</dt>
        <dd>${formatDate(health.last_received_at)}</dd>
        <dt>Last reply sent</dt>
        <dd>${formatDate(health.last_sent_at)}</dd>
        <dt>Replies waiting</dt>
        <dd>${health.pending_replies}</dd>
        <dt>Last error</dt>
        <dd>${health.last_error ? `${health.last_error} (${formatDate(health.last_error_at)})` : 'None'}</dd>
      </dl>
      <h3>Webhook URL</h3>
      <p class="hint">${info.webhookStep}</p>
      <pre class="code"><code>${channel.webhook_url}</code></pre>
      <div class="toolbar">
        <aicd-copy-button .text=${channel.webhook_url} label=${`Copy the ${info.label} webhook URL`}></aicd-copy-button>
        <p class="hint">Steps on ${info.label}’s side: <code class="doc">${info.docs}</code> in the project's repository.</p>
      </div>
      <h3>Credentials</h3>
      <ul class="credentials">
        ${info.fields.map(
          (f) => html`<li>${f.label}: ${f.secret ? (channel.secrets_set[f.name] ? 'saved' : 'not set') : channel.settings[f.name] || 'not set'}</li>`,
        )}
      </ul>
      <div class="toolbar">
        <button type="button" aria-label=${`Change credentials of ${info.label}`} @click=${() => this.edit(channel.type)}>Change credentials</button>
        ${info.webhookApi
          ? html`<button type="button" @click=${() => this.webhook(channel.type, 'register')}>Register webhook</button>
              <button type="button" @click=${() => this.webhook(channel.type, 'remove')}>Remove webhook</button>`
          : nothing}
        <button type="button" class="danger" aria-label=${`Disconnect ${info.label}`} @click=${() => this.disconnect(channel.type)}>Disconnect</button>
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
        <legend>Send a test message</legend>
        ${field({ name: `test-chat-${platform}`, label: 'Recipient', value: input.chat, hint: `${info.chatHint} Empty: whoever wrote to the bot last.`, onInput: (chat) => set({ chat }) })}
        ${field({ name: `test-text-${platform}`, label: 'Text', value: input.text, hint: 'Optional; a sentence naming the bot otherwise.', onInput: (text) => set({ text }) })}
        <button type="submit" ?disabled=${this.tests.active && !!test}>Send test message</button>
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
    const title = editing && info ? `Change the ${info.label} credentials` : 'Connect a platform';
    return html`<form novalidate @submit=${this.connect} aria-labelledby="connect-title">
      <h2 id="connect-title">${title}</h2>
      ${editing
        ? nothing
        : field({
            name: 'platform',
            label: 'Platform',
            value: this.platform,
            options: [['', 'Choose a platform'], ...choices.map((p) => [p, PLATFORMS[p].label] as const)],
            onInput: (platform) => this.choose(platform as ChannelPlatform | ''),
          })}
      ${info
        ? html`${info.fields.map((f) =>
              field({
                name: f.name,
                label: f.label,
                type: f.secret ? 'password' : 'text',
                value: this.values[f.name] ?? '',
                hint: f.secret && editing ? `${f.hint} Saved: type a new one to change it, or leave it empty to keep it.` : f.hint,
                error: this.form.errors[f.name],
                onInput: (value) => (this.values = { ...this.values, [f.name]: value }),
              }),
            )}
            <p class="hint">Secrets are stored encrypted and never shown again. Steps: <code class="doc">${info.docs}</code> in the project's repository.</p>`
        : nothing}
      ${this.form.formError ? html`<p class="error" role="alert">${this.form.formError}</p>` : nothing}
      <div class="toolbar">
        <button type="submit" class="primary" ?disabled=${!info || this.form.saving}>${editing ? 'Save' : 'Connect'}</button>
        ${editing ? html`<button type="button" @click=${() => this.choose('')}>Cancel</button>` : nothing}
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
    this.notice = editing ? `${info.label}: the credentials are saved.` : `${info.label} is connected: its credentials are saved. ${info.webhookStep}`;
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
      ? this.act(platform, () => this.client.channels.registerWebhook(this.botId, platform), `${label} has the webhook: it delivers messages to this service.`)
      : this.act(platform, () => this.client.channels.removeWebhook(this.botId, platform), `${label} no longer delivers messages here until the webhook is registered again.`);
  }

  private async disconnect(platform: ChannelPlatform): Promise<void> {
    const label = PLATFORMS[platform].label;
    const yes = await this.confirm.ask({
      title: `Disconnect ${label}?`,
      message: `The bot stops answering on ${label}; its saved credentials and replies not sent yet are deleted. Conversations stay in the inbox.`,
      confirmLabel: `Disconnect ${label}`,
    });
    if (!yes) return;
    if (this.tests.test?.platform === platform) this.tests.reset();
    if (this.platform === platform) this.choose('');
    await this.act(platform, () => this.client.channels.disconnect(this.botId, platform), `${label} is disconnected.`);
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
  if (!message) return error ? '' : 'Sending…';
  const to = message.chat;
  const outcomes: Record<ChannelTestMessage['status'], string> = {
    pending: message.error ? `Not sent to ${to} yet (${message.error}); the service tries again.` : `Queued for ${to}…`,
    sending: `Sending to ${to}…`,
    sent: `Sent to ${to} (${formatDate(message.sent_at)}).`,
    failed: `Not sent to ${to}: ${message.error ?? 'the platform refused it'}.`,
    unconfirmed: `Maybe not delivered to ${to}: ${message.error ?? 'no answer from the platform'}.`,
  };
  return outcomes[message.status];
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-channels-page': AicdChannelsPage;
  }
}
