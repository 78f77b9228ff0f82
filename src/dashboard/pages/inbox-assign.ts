import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AssignmentOperator, InboxConversation } from '../../client/index.js';
import { api as defaultApi, type DashboardApi } from '../api.js';
import { errorMessage } from '../ui/errors.js';
import { labels, locale, LocaleController, t } from '../i18n/i18n.js';
import { PRESENCE_LABELS } from '../ui/format.js';
import pageStyles from '../ui/page.styles.js';

/** The inbox list's views: the operator's own conversations, the queue nobody holds, or everything. */
export type InboxView = 'mine' | 'unassigned' | 'all';

const VIEWS = labels<InboxView>({ mine: 'inbox.mine', unassigned: 'inbox.unassigned', all: 'inbox.all' });

/** The conversations of `view` for the operator `myId`. */
export function inView(items: InboxConversation[], view: InboxView, myId: string): InboxConversation[] {
  if (view === 'mine') return items.filter((c) => c.status === 'with_person' && c.operator?.id === myId);
  if (view === 'unassigned') return items.filter((c) => c.status === 'waiting');
  return items;
}

/** Fired when the operator picks another view of the list. */
export class InboxViewChangeEvent extends Event {
  constructor(readonly view: InboxView) {
    super('aicd-inbox-view-change', { bubbles: true, composed: true });
  }
}

/**
 * The inbox list's "Mine / Unassigned / All" switch: toggle buttons, the chosen one pressed.
 *
 * @fires aicd-inbox-view-change - When the operator picks a view (`InboxViewChangeEvent`).
 */
@customElement('aicd-inbox-views')
export class AicdInboxViews extends LitElement {
  static override styles = [
    pageStyles,
    css`
      div {
        display: flex;
        gap: 0.4rem;
        margin: 0.5rem 0;
      }
      button[aria-pressed='true'] {
        font-weight: 600;
        border-color: currentColor;
      }
    `,
  ];

  @property({ attribute: false }) view: InboxView = 'all';
  private readonly i18n = new LocaleController(this);

  override render() {
    return html`<div role="group" aria-label=${t('inbox.show')}>
      ${(Object.keys(VIEWS) as InboxView[]).map(
        (view) =>
          html`<button type="button" aria-pressed=${String(this.view === view)} @click=${() => view !== this.view && this.dispatchEvent(new InboxViewChangeEvent(view))}>${VIEWS[view]}</button>`,
      )}
    </div>`;
  }
}

/**
 * Who has the open conversation: assign it to a teammate (any presence: by hand it is allowed),
 * transfer it, or put it back in the queue (`PUT/DELETE /v1/conversations/{id}/assignment`). The
 * teammates come with their presence and load (`GET /v1/assignment`). The inbox hears the change
 * on its event stream like every other inbox, so nothing is fired here.
 */
@customElement('aicd-conversation-assign')
export class AicdConversationAssign extends LitElement {
  static override styles = [
    pageStyles,
    css`
      form {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        align-items: end;
      }
    `,
  ];

  @property({ attribute: false }) api: DashboardApi = defaultApi;
  @property({ attribute: false }) conversation: InboxConversation | null = null;

  @state() private operators: AssignmentOperator[] = [];
  @state() private choice = '';
  @state() private busy = false;
  @state() private error = '';
  private readonly i18n = new LocaleController(this);

  override connectedCallback(): void {
    super.connectedCallback();
    void this.loadTeam();
  }

  override render() {
    const c = this.conversation;
    if (!c) return nothing;
    const holder = c.status === 'with_person' ? c.operator : null;
    const others = this.operators.filter((o) => o.id !== holder?.id);
    return html`<h3 id="assign-heading">${t('inbox.assignment')}</h3>
      <p class="meta">${holder ? t('inbox.assignedTo', { name: holder.name }) : t('inbox.nobodyHasIt')}</p>
      <form @submit=${this.assign} aria-labelledby="assign-heading">
        <div>
          <label for="assign-to">${t(holder ? 'inbox.transferTo' : 'inbox.assignTo')}</label>
          <select id="assign-to" .value=${this.choice} @change=${(e: Event) => (this.choice = (e.target as HTMLSelectElement).value)}>
            <option value="">${t('inbox.chooseTeammate')}</option>
            ${others.map((o) => html`<option value=${o.id} ?selected=${o.id === this.choice}>${t('inbox.teammateOption', { name: o.name, presence: PRESENCE_LABELS[o.presence].toLocaleLowerCase(locale()), open: o.open })}</option>`)}
          </select>
        </div>
        <button type="submit" ?disabled=${!this.choice || this.busy}>${t(holder ? 'inbox.transfer' : 'inbox.assign')}</button>
        ${holder ? html`<button type="button" ?disabled=${this.busy} @click=${this.unassign}>${t('inbox.unassign')}</button>` : nothing}
      </form>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}`;
  }

  private async loadTeam(): Promise<void> {
    try {
      this.operators = (await this.api.client.assignment.settings()).data.operators;
    } catch (error) {
      this.error = errorMessage(error);
    }
  }

  private async assign(event: Event): Promise<void> {
    event.preventDefault();
    const c = this.conversation;
    if (c && this.choice) await this.run(() => this.api.client.assignment.assign(c.id, this.choice));
  }

  private async unassign(): Promise<void> {
    const c = this.conversation;
    if (c) await this.run(() => this.api.client.assignment.unassign(c.id));
  }

  private async run(change: () => Promise<unknown>): Promise<void> {
    this.busy = true;
    try {
      await change();
      this.choice = '';
      this.error = '';
      await this.loadTeam(); // the loads changed
    } catch (error) {
      this.error = errorMessage(error);
    } finally {
      this.busy = false;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-inbox-views': AicdInboxViews;
    'aicd-conversation-assign': AicdConversationAssign;
  }
}
