import { LitElement, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { HandoffEvent } from '../../client/index.js';
import type { DashboardApi, Invite, Role, Session, Teammate, User } from '../api.js';
import { api as defaultApi } from '../api.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import '../ui/copy-button.js';
import { errorMessage } from '../ui/errors.js';
import { field } from '../ui/field.js';
import { FormState } from '../ui/form-state.js';
import { formatDate, PRESENCE_LABELS } from '../ui/format.js';
import { LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';
import { followInbox } from '../inbox-stream.js';

const FIELDS = ['role', 'expires_in_hours'] as const;

/**
 * Teammates: the list with roles and presence, live (the `presence` events of the dashboard's one
 * inbox stream, inbox-stream.ts; read again on each reconnect); owners invite by one-time
 * link (shown once, copyable), change roles, remove teammates and revoke pending invites. Members
 * see the list only.
 */
@customElement('aicd-team-page')
export class AicdTeamPage extends LitElement {
  static override styles = pageStyles;

  @property({ attribute: false }) session!: Session;
  @property({ attribute: false }) api: DashboardApi = defaultApi;

  @state() private teammates: Teammate[] | null = null;
  @state() private invites: Invite[] = [];
  @state() private loadError = '';
  @state() private inviteRole: Role = 'member';
  @state() private inviteHours = '72';
  @state() private link = '';
  @state() private notice = '';
  @query('aicd-confirm-dialog') private confirm!: AicdConfirmDialog;
  private readonly form = new FormState(this);
  private readonly i18n = new LocaleController(this);
  private unfollow: (() => void) | null = null;

  private get owner(): boolean {
    return this.session?.user.role === 'owner';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
    this.unfollow = followInbox(this.api, { event: (e) => this.onEvent(e), ready: () => this.teammates && void this.load() });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unfollow?.();
    this.unfollow = null;
  }

  private onEvent(event: HandoffEvent): void {
    if (event.type !== 'presence' || !this.teammates) return;
    const { user_id, status } = event.data;
    if (!this.teammates.some((u) => u.id === user_id)) return void this.load(); // someone who joined since
    this.teammates = this.teammates.map((u) => (u.id === user_id ? { ...u, presence: status } : u));
  }

  private async load(): Promise<void> {
    try {
      this.teammates = await this.api.teammates();
      this.invites = this.owner ? await this.api.invites() : [];
      this.loadError = '';
    } catch (error) {
      this.loadError = errorMessage(error);
    }
  }

  override render() {
    return html`<h1>${t('nav.team')}</h1>
      <p class="status" role="status">${this.notice}</p>
      ${this.loadError ? html`<p class="error" role="alert">${this.loadError}</p>` : nothing}
      ${this.owner ? this.renderInvite() : html`<p>${t('team.ownersOnly')}</p>`}
      <h2>${t('team.teammates')}</h2>
      ${this.renderTeammates()} ${this.owner && this.invites.length ? this.renderInvites() : nothing}
      <aicd-confirm-dialog></aicd-confirm-dialog>`;
  }

  private renderInvite() {
    return html`<form @submit=${this.createInvite} novalidate>
        <fieldset>
          <legend>${t('team.invite')}</legend>
          ${field({
            name: 'role',
            label: t('team.role'),
            value: this.inviteRole,
            error: this.form.errors.role,
            options: [
              ['member', t('team.memberScope')],
              ['owner', t('team.ownerScope')],
            ],
            onInput: (v) => (this.inviteRole = v as Role),
          })}
          ${field({
            name: 'expires_in_hours',
            label: t('team.hours'),
            type: 'number',
            value: this.inviteHours,
            error: this.form.errors.expires_in_hours,
            hint: t('team.hoursHint'),
            onInput: (v) => (this.inviteHours = v),
          })}
          <p class="error" role="alert">${this.form.formError}</p>
          <button class="primary" type="submit" ?disabled=${this.form.saving}>${t('team.create')}</button>
        </fieldset>
      </form>
      ${this.link
        ? html`<section aria-labelledby="link-title">
            <h2 id="link-title">${t('shell.inviteTitle')}</h2>
            <p>${t('team.sendIt')}</p>
            <pre><code>${this.link}</code></pre>
            <aicd-copy-button .text=${this.link} label=${t('team.copy')}></aicd-copy-button>
          </section>`
        : nothing}`;
  }

  private renderTeammates() {
    if (!this.teammates) return html`<p class="status">${t('list.loading')}</p>`;
    return html`<table>
      <caption class="visually-hidden">${t('team.teammates')}</caption>
      <thead>
        <tr>
          <th scope="col">${t('signIn.email')}</th><th scope="col">${t('team.role')}</th><th scope="col">${t('common.status')}</th><th scope="col">${t('team.joined')}</th>
          ${this.owner ? html`<th scope="col"><span class="visually-hidden">${t('keys.actions')}</span></th>` : nothing}
        </tr>
      </thead>
      <tbody>
        ${this.teammates.map((user) => {
          const self = user.id === this.session.user.id;
          return html`<tr>
            <td>${user.email}${self ? html` <span class="hint">${t('team.you')}</span>` : nothing}</td>
            <td>
              ${this.owner
                ? html`<select aria-label=${t('team.roleOf', { email: user.email })} @change=${(e: Event) => this.setRole(user, (e.target as HTMLSelectElement).value as Role)}>
                    <option value="owner" ?selected=${user.role === 'owner'}>${t('team.owner')}</option>
                    <option value="member" ?selected=${user.role === 'member'}>${t('team.member')}</option>
                  </select>`
                : t(user.role === 'owner' ? 'team.owner' : 'team.member')}
            </td>
            <td>${PRESENCE_LABELS[user.presence]}</td>
            <td>${formatDate(user.created_at)}</td>
            ${this.owner
              ? html`<td>${self ? nothing : html`<button type="button" class="danger" aria-label=${t('team.removeItem', { email: user.email })} @click=${() => this.removeTeammate(user)}>${t('common.remove')}</button>`}</td>`
              : nothing}
          </tr>`;
        })}
      </tbody>
    </table>`;
  }

  private renderInvites() {
    return html`<h2>${t('team.pending')}</h2>
      <table>
        <caption class="visually-hidden">${t('team.pending')}</caption>
        <thead>
          <tr>
            <th scope="col">${t('team.role')}</th><th scope="col">${t('keys.created')}</th><th scope="col">${t('keys.expires')}</th>
            <th scope="col"><span class="visually-hidden">${t('keys.actions')}</span></th>
          </tr>
        </thead>
        <tbody>
          ${this.invites.map(
            (invite) => html`<tr>
              <td>${t(invite.role === 'owner' ? 'team.owner' : 'team.member')}</td>
              <td>${formatDate(invite.created_at)}</td>
              <td>${formatDate(invite.expires_at)}</td>
              <td><button type="button" class="danger" aria-label=${t('team.revokeInvite', { when: formatDate(invite.created_at) })} @click=${() => this.revokeInvite(invite)}>${t('keys.revoke')}</button></td>
            </tr>`,
          )}
        </tbody>
      </table>`;
  }

  private async createInvite(event: Event): Promise<void> {
    event.preventDefault();
    const hours = Number(this.inviteHours);
    const created = await this.form.submit(FIELDS, () =>
      this.api.createInvite({ role: this.inviteRole, ...(this.inviteHours.trim() ? { expires_in_hours: hours } : {}) }),
    );
    if (!created) return;
    this.link = created.url;
    await this.load();
  }

  private async setRole(user: User, role: Role): Promise<void> {
    try {
      await this.api.setRole(user.id, role);
      this.notice = t(role === 'owner' ? 'team.nowOwner' : 'team.nowMember', { email: user.email });
    } catch (error) {
      this.notice = errorMessage(error);
    }
    await this.load();
  }

  private async removeTeammate(user: User): Promise<void> {
    const yes = await this.confirm.ask({
      title: t('team.removeTitle'),
      message: t('team.removeMessage', { email: user.email }),
      confirmLabel: t('team.removeConfirm'),
    });
    if (!yes) return;
    try {
      await this.api.removeTeammate(user.id);
      this.notice = t('team.removed', { email: user.email });
    } catch (error) {
      this.notice = errorMessage(error);
    }
    await this.load();
  }

  private async revokeInvite(invite: Invite): Promise<void> {
    try {
      await this.api.revokeInvite(invite.id);
      this.notice = t('team.revoked');
    } catch (error) {
      this.notice = errorMessage(error);
    }
    await this.load();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-team-page': AicdTeamPage;
  }
}
