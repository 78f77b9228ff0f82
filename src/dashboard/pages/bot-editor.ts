import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { keyed } from 'lit/directives/keyed.js';
import type { AiChatClient, Bot } from '../../client/index.js';
import '../../ai-chat-widget.js';
import { api, client as dashboardClient } from '../api.js';
import type { Session } from '../types.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import '../ui/copy-button.js';
import { errorMessage } from '../ui/errors.js';
import { field } from '../ui/field.js';
import { FormState } from '../ui/form-state.js';
import { languageOptions, splitLines } from '../ui/format.js';
import { LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';
import { appearanceFieldset, previewProperties } from './bot-appearance.js';
import { attachmentsFieldset, attachmentsProblems } from './bot-attachments.js';
import { deleteBotQuestion, draftOf, emptyEntity, emptyIntent, fieldKeys, intentDraftOf, intentOf, newBotDraft, requestOf, type BotDraft, type EntityDraft, type IntentDraft } from './bot-draft.js';
import { intentsFieldset, IntentsView } from './bot-intents.js';
import styles from './bot-editor.styles.js';
import { installSnippet, proxySnippet, scriptTagSnippet, websiteOrigins } from './embed-snippet.js';

/** The bot is saved (created or updated, and trained by the service before it answers). */
export class BotSavedEvent extends Event {
  constructor(readonly bot: Bot, readonly created: boolean) {
    super('aicd-bot-saved', { bubbles: true, composed: true });
  }
}

/** Where the bot list lives; the editor's own route is `#/bots/<id>` (`#/bots/new` for a new bot). */
const LIST_HASH = '#/bots';
const NEW_BOT = 'new';

/**
 * The page of one bot (`#/bots/<id>`, or `#/bots/new`): name, language, intents, entities, quick
 * replies, allowed origins, knowledge scope, what visitors may attach, and (once saved) the handoff
 * settings, in a form of their own (bot-handoff.ts). The service validates
 * (the form checks only the attachment numbers it can judge itself); its errors are shown at the
 * field they name. Once saved (the service trains the bot before answering), a live preview, the
 * real `<ai-chat-widget>`, talks to the bot through the session passthrough, and the embed
 * snippets for it can be copied. Deleting asks first.
 *
 * @fires {BotSavedEvent} aicd-bot-saved
 * @fires aicd-bot-deleted - The bot was deleted (the page then goes back to the list).
 */
@customElement('aicd-bot-editor')
export class AicdBotEditor extends LitElement {
  static override styles = [pageStyles, styles];

  /** The /v1 client; the signed-in session's unless a host or a test passes another. */
  @property({ attribute: false }) client: AiChatClient = dashboardClient;
  /** From the route: the bot's id, or `new`. */
  @property({ attribute: false }) botId = NEW_BOT;
  /** The bot as loaded (or as the last save answered); null while new or loading. */
  @state() private bot: Bot | null = null;
  /** Where the preview widget sends its requests: the session passthrough. */
  @property({ attribute: false }) previewBaseUrl = '/dashboard/api/v1';
  /**
   * The session's CSRF token (the shell sets it). The preview widget sends it as its bearer token,
   * which the passthrough accepts as the CSRF proof of the widget's writes (a widget sends no other
   * header of its own); the session cookie is the credential. No API key is involved.
   */
  @property({ attribute: false }) csrfToken?: string;
  /**
   * The signed-in session (the shell sets it): each teammate previews as their own end user
   * (`dashboard-preview:<user id>`), so two people trying the same bot never share a conversation.
   */
  @property({ attribute: false }) session?: Session;

  @state() private draft: BotDraft = newBotDraft();
  @state() private notice = '';
  @state() private loadError = '';
  /** The preview shows the launcher in a page's corner instead of the open panel. */
  @state() private previewLauncher = false;
  @query('aicd-confirm-dialog') private confirmDialog!: AicdConfirmDialog;

  private readonly form = new FormState(this);
  private readonly i18n = new LocaleController(this);
  private readonly intentsView = new IntentsView(this);

  override connectedCallback(): void {
    super.connectedCallback();
    // Chunks of their own (the quality report and "try it", the CSV and JSON tools): the elements
    // upgrade when they arrive.
    void import('./intent-quality.js');
    void import('./intents-transfer.js');
    void import('./bot-handoff.js'); // the handoff settings of a saved bot
    void import('./bot-csat.js'); // and when its widget asks for a rating
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('botId') || changed.has('client')) && this.botId !== (this.bot?.id ?? NEW_BOT)) void this.load();
  }

  private async load(): Promise<void> {
    const id = this.botId;
    this.bot = null;
    this.loadError = '';
    this.edit(null);
    if (id === NEW_BOT) return;
    try {
      const { data } = await this.client.bots.get(id);
      if (this.botId === id) this.edit(data);
    } catch (error) {
      if (this.botId === id) this.loadError = errorMessage(error);
    }
  }

  /** Shows `bot` (null: a new one) in the form, discarding unsaved edits and errors. */
  private edit(bot: Bot | null): void {
    if (bot?.id !== this.bot?.id) this.notice = ''; // a notice about another bot would mislead
    this.bot = bot;
    this.draft = bot ? draftOf(bot) : newBotDraft();
    this.intentsView.reset();
    this.form.reset();
  }

  override render() {
    const bot = this.bot;
    const header = html`<p>
      <a href=${LIST_HASH}>${t('bots.allBots')}</a>${bot ? html` · <a href=${`#/bots/${encodeURIComponent(bot.id)}/channels`}>${t('bots.channelsLink')}</a>` : nothing}
    </p>`;
    if (this.loadError) return html`${header}<h1>${t('route.bot')}</h1><p class="error" role="alert">${this.loadError}</p>`;
    if (this.botId !== NEW_BOT && !bot) return html`${header}<h1>${t('route.bot')}</h1><p class="status" role="status">${t('list.loading')}</p>`;
    return html`${header}
      <h1>${bot ? bot.name : t('bots.newBot')}</h1>
      <p class="status" role="status">${this.notice}</p>
      <div class="layout">
      <div>
      <form novalidate @submit=${this.save} aria-label=${bot ? t('bots.settings') : t('bots.newBot')}>
        ${this.form.formError ? html`<p class="error" role="alert">${this.form.formError}</p>` : nothing}
        ${this.text('name', t('common.name'))} ${this.text('description', t('common.description'))}
        ${field({ name: 'language', label: t('common.language'), value: this.draft.language, options: languageOptions(), error: this.form.errors.language, onInput: (language) => this.patch({ language }) })}
        ${this.renderIntents()} ${this.renderEntities()}
        ${appearanceFieldset(this.draft.appearance, this.form.errors, (patch) => this.patch({ appearance: { ...this.draft.appearance, ...patch } }),
          this.text('quickReplies', t('bots.quickReplies'), t('bots.quickRepliesHint'), 'quick_replies'))}
        ${this.text('origins', t('bots.origins'), t('bots.originsHint'), 'channels')}
        ${this.renderKnowledge()}
        ${attachmentsFieldset(this.draft.attachments, this.form.errors, (patch) => this.patch({ attachments: { ...this.draft.attachments, ...patch } }))}
        <div class="toolbar">
          <button type="submit" class="primary" ?disabled=${this.form.saving}>${bot ? t('bots.saveAndTrain') : t('bots.createAndTrain')}</button>
          ${bot ? html`<button type="button" class="danger" @click=${() => this.confirmDelete(bot)}>${t('bots.deleteBot')}</button>` : nothing}
        </div>
      </form>
      ${bot ? html`<aicd-bot-handoff .client=${this.client} .botId=${bot.id} .intents=${bot.training.intents.map((i) => i.name)}></aicd-bot-handoff>
        <aicd-bot-csat .client=${this.client} .botId=${bot.id}></aicd-bot-csat>` : nothing}
      </div>
      ${bot ? this.renderSide(bot) : nothing}
      </div>
      <aicd-confirm-dialog></aicd-confirm-dialog>`;
  }

  private text(name: 'name' | 'description' | 'quickReplies' | 'origins', label: string, hint = '', errorKey: string = name) {
    const multiline = name === 'quickReplies' || name === 'origins';
    return field({ name: errorKey, label, hint, multiline, value: this.draft[name], error: this.form.errors[errorKey], onInput: (value) => this.patch({ [name]: value }) });
  }

  private renderIntents() {
    const intents = this.draft.intents;
    return intentsFieldset({
      intents,
      errors: this.form.errors,
      view: this.intentsView,
      setIntent: (i, patch) => this.setIntent(i, patch),
      remove: (i) => {
        this.intentsView.removed(i);
        this.patch({ intents: intents.filter((_, j) => j !== i) });
      },
      add: () => {
        this.intentsView.set(intents.length, true);
        this.patch({ intents: [...intents, emptyIntent()] });
      },
      before: html`${this.sectionError('training.intents')} ${this.sectionError('training')}
        <aicd-intents-transfer
          .intents=${intents.map(intentOf)}
          filename=${(this.bot?.name ?? 'bot').replace(/[^A-Za-z0-9_-]+/g, '-')}-intents
          @aicd-intents-imported=${(e: Event & { intents: Bot['training']['intents'] }) => {
            this.intentsView.reset();
            this.patch({ intents: e.intents.map(intentDraftOf) });
          }}
        ></aicd-intents-transfer>`,
    });
  }

  private renderEntities() {
    const entities = this.draft.entities;
    return html`<fieldset>
      <legend>${t('bots.entities')}</legend>
      ${this.sectionError('training.entities')}
      ${entities.map((entity, i) => {
        const key = (f: keyof EntityDraft) => `training.entities.${i}.${f}`;
        const set = (patch: Partial<EntityDraft>) => this.patch({ entities: entities.map((e, j) => (j === i ? { ...e, ...patch } : e)) });
        return html`<fieldset class="item">
          <legend>Entity ${i + 1}</legend>
          ${this.sectionError(`training.entities.${i}`)}
          ${field({ name: key('name'), label: t('bots.entityName'), value: entity.name, error: this.form.errors[key('name')], onInput: (name) => set({ name }) })}
          ${field({ name: key('type'), label: t('bots.type'), value: entity.type, options: [['list', t('bots.listOfValues')], ['regex', t('bots.pattern')]], error: this.form.errors[key('type')], onInput: (type) => set({ type: type as EntityDraft['type'] }) })}
          ${entity.type === 'list'
            ? field({ name: key('values'), label: t('bots.values'), hint: t('bots.valuesHint'), multiline: true, value: entity.values, error: this.form.errors[key('values')], onInput: (values) => set({ values }) })
            : field({ name: key('pattern'), label: t('bots.pattern'), hint: t('bots.patternHint'), value: entity.pattern, error: this.form.errors[key('pattern')], onInput: (pattern) => set({ pattern }) })}
          <button type="button" class="danger" @click=${() => this.patch({ entities: entities.filter((_, j) => j !== i) })}>Remove entity ${i + 1}</button>
        </fieldset>`;
      })}
      <button type="button" @click=${() => this.patch({ entities: [...entities, emptyEntity()] })}>${t('bots.addEntity')}</button>
    </fieldset>`;
  }

  private renderKnowledge() {
    const d = this.draft;
    return html`<fieldset>
      <legend>${t('bots.knowledgeScope')}</legend>
      ${field({
        name: 'knowledge',
        label: t('bots.scopeLabel'),
        hint: t('bots.scopeHint'),
        value: d.knowledgeMode,
        options: [['none', t('common.none')], ['all', t('bots.everyEntry')], ['tags', t('bots.taggedEntries')]],
        error: this.form.errors.knowledge,
        onInput: (mode) => this.patch({ knowledgeMode: mode as BotDraft['knowledgeMode'] }),
      })}
      ${d.knowledgeMode === 'tags'
        ? field({ name: 'knowledge-tags', label: t('common.tags'), hint: t('common.commaSeparated'), value: d.knowledgeTags, onInput: (knowledgeTags) => this.patch({ knowledgeTags }) })
        : nothing}
    </fieldset>`;
  }

  private renderSide(bot: Bot) {
    const origin = location.origin;
    const origins = websiteOrigins(bot);
    const install = installSnippet(bot, origin);
    const script = scriptTagSnippet(bot, origin);
    const proxy = proxySnippet(bot, origin, 'express');
    const nextjs = proxySnippet(bot, origin, 'nextjs');
    // The preview's token (the session's) does not let the widget read the bot as its own credentials
    // would on a site: the bot's settings are handed to it instead, its appearance and quick replies
    // from the form as they are typed, so it looks as it will there once saved.
    const look = previewProperties(this.draft.appearance, bot);
    const launcher = this.previewLauncher;
    return html`<aside class="side">
      <section aria-labelledby="preview-heading">
        <h2 id="preview-heading">${t('bots.preview')}</h2>
        <p class="hint">${t('bots.previewHint', { status: t(`botStatus.${bot.status}`) })}</p>
        <label class="check"><input type="checkbox" name="preview-launcher" .checked=${launcher}
          @change=${(e: Event) => (this.previewLauncher = (e.target as HTMLInputElement).checked)} /> ${t('bots.showAsLauncher')}</label>
        <div class=${launcher ? 'preview-page' : ''}>
        ${keyed(
          bot.updated_at,
          html`<ai-chat-widget
            class=${launcher ? '' : 'preview'}
            mode=${launcher ? 'launcher' : 'inline'}
            storage="none"
            .userId=${this.session ? `dashboard-preview:${this.session.user.id}` : 'dashboard-preview'}
            .botName=${look.botName}
            .botAvatar=${look.botAvatar}
            .color=${look.color}
            .position=${look.position}
            .launcherIcon=${look.launcherIcon}
            .welcomeMessage=${look.welcomeMessage}
            .starters=${splitLines(this.draft.quickReplies)}
            .attachments=${bot.attachments.enabled}
            .baseUrl=${this.previewBaseUrl}
            .botId=${bot.id}
            .token=${this.csrfToken ?? api.csrfToken}
          ></ai-chat-widget>`,
        )}
        </div>
      </section>
      <aicd-try-intent .classify=${async (text: string) => (await this.client.bots.classify(bot.id, { text })).data}></aicd-try-intent>
      <aicd-intent-quality .load=${bot.status === 'ready' ? async () => (await this.client.bots.quality(bot.id)).data : null} version=${`${bot.status}:${bot.trained_at ?? ''}`}></aicd-intent-quality>
      <section aria-labelledby="embed-heading">
        <h2 id="embed-heading">${t('bots.embed')}</h2>
        ${origins.length
          ? html`<p class="hint" id="install-hint">Paste this into your pages on ${origins.join(', ')}: nothing else to run.</p>
              <pre class="code snippet-install" tabindex="0" role="region" aria-labelledby="embed-heading install-hint">${install}</pre>
              <aicd-copy-button .text=${install} label=${t('bots.copySnippet')}></aicd-copy-button>`
          : html`<p class="hint snippet-needs-origin">${t('bots.embedFirst')}</p>`}
        <h3 id="identify-heading">${t('bots.signedInSites')}</h3>
        <p class="hint">${t('bots.signedInHint')}</p>
        <h4 id="script-heading">${t('bots.scriptTag')}</h4>
        <pre class="code snippet-script" tabindex="0" role="region" aria-labelledby="script-heading">${script}</pre>
        <aicd-copy-button .text=${script} label=${t('bots.copyScriptTag')}></aicd-copy-button>
        <h4 id="proxy-heading">${t('bots.proxyExpress')}</h4>
        <pre class="code snippet-proxy" tabindex="0" role="region" aria-labelledby="proxy-heading">${proxy}</pre>
        <aicd-copy-button .text=${proxy} label=${t('bots.copyExpress')}></aicd-copy-button>
        <h4 id="nextjs-heading">${t('bots.proxyNext')}</h4>
        <pre class="code snippet-nextjs" tabindex="0" role="region" aria-labelledby="nextjs-heading">${nextjs}</pre>
        <aicd-copy-button .text=${nextjs} label=${t('bots.copyNext')}></aicd-copy-button>
      </section>
    </aside>`;
  }

  private sectionError(key: string) {
    const error = this.form.errors[key];
    return error ? html`<p class="field-error" role="alert">${error}</p>` : nothing;
  }

  private patch(patch: Partial<BotDraft>): void {
    this.draft = { ...this.draft, ...patch };
  }

  private setIntent(index: number, patch: Partial<IntentDraft>): void {
    this.patch({ intents: this.draft.intents.map((intent, i) => (i === index ? { ...intent, ...patch } : intent)) });
  }

  private async save(event: Event): Promise<void> {
    event.preventDefault();
    const problems = attachmentsProblems(this.draft.attachments);
    if (Object.keys(problems).length) {
      this.notice = t('common.notSaved');
      await this.form.refuse(problems);
      return;
    }
    const existing = this.bot;
    this.notice = existing ? t('bots.savingAndTraining') : t('bots.creatingAndTraining');
    const body = requestOf(this.draft);
    const saved = await this.form.submit(fieldKeys(this.draft), () => (existing ? this.client.bots.update(existing.id, body) : this.client.bots.create(body)));
    if (!saved) {
      this.notice = t('common.notSaved');
      return;
    }
    this.botId = saved.data.id;
    this.edit(saved.data);
    this.notice = t('bots.savedStatus', { status: t(`botStatus.${saved.data.status}`) });
    // A new bot gets its own address without a second history entry (Back still leaves the editor).
    if (!existing && location.hash === `${LIST_HASH}/${NEW_BOT}`) history.replaceState(null, '', `${LIST_HASH}/${saved.data.id}`);
    this.dispatchEvent(new BotSavedEvent(saved.data, !existing));
  }

  private async confirmDelete(bot: Bot): Promise<void> {
    const confirmed = await this.confirmDialog.ask(deleteBotQuestion(bot));
    if (!confirmed) return;
    try {
      await this.client.bots.delete(bot.id);
    } catch (error) {
      this.notice = errorMessage(error);
      return;
    }
    this.dispatchEvent(new Event('aicd-bot-deleted', { bubbles: true, composed: true }));
    location.hash = LIST_HASH;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-bot-editor': AicdBotEditor;
  }
}
