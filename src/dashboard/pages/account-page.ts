import { LitElement, html } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { DashboardApi, Session } from '../api.js';
import { api as defaultApi } from '../api.js';
import { isApiError } from '../../client/index.js';
import { field, focusFirstInvalid } from '../ui/field.js';
import { FormState } from '../ui/form-state.js';
import { formatDate } from '../ui/format.js';
import { LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';
import './operator-profile.js';

const FIELDS = ['current_password', 'new_password'] as const;

/**
 * The signed-in user: who they are, their profile as visitors see it (operator-profile.ts), and a
 * password change (which ends their other sessions).
 */
@customElement('aicd-account-page')
export class AicdAccountPage extends LitElement {
  static override styles = pageStyles;

  @property({ attribute: false }) session!: Session;
  @property({ attribute: false }) api: DashboardApi = defaultApi;

  @state() private current = '';
  @state() private next = '';
  @state() private notice = '';
  private readonly form = new FormState(this);
  private readonly i18n = new LocaleController(this);

  override render() {
    const { user, account } = this.session;
    return html`<h1>${t('nav.account')}</h1>
      <dl>
        <dt>${t('signIn.email')}</dt>
        <dd>${user.email}</dd>
        <dt>${t('team.role')}</dt>
        <dd>${t('account.roleOf', { role: t(user.role === 'owner' ? 'team.owner' : 'team.member'), account: account.name })}</dd>
        <dt>${t('account.since')}</dt>
        <dd>${formatDate(user.created_at)}</dd>
      </dl>
      <aicd-operator-profile .api=${this.api}></aicd-operator-profile>
      <form @submit=${this.change} novalidate>
        <fieldset>
          <legend>${t('account.changePassword')}</legend>
          ${field({ name: 'current_password', label: t('account.current'), type: 'password', value: this.current, error: this.form.errors.current_password, onInput: (v) => (this.current = v) })}
          ${field({
            name: 'new_password',
            label: t('account.new'),
            type: 'password',
            value: this.next,
            error: this.form.errors.new_password,
            hint: t('account.newHint'),
            onInput: (v) => (this.next = v),
          })}
          <p class="error" role="alert">${this.form.formError}</p>
          <button class="primary" type="submit" ?disabled=${this.form.saving}>${t('account.changePassword')}</button>
        </fieldset>
      </form>
      <p class="status" role="status">${this.notice}</p>`;
  }

  private async change(event: Event): Promise<void> {
    event.preventDefault();
    this.notice = '';
    let wrongPassword = '';
    const session = await this.form.submit(FIELDS, async () => {
      try {
        return await this.api.changePassword(this.current, this.next);
      } catch (error) {
        // Not a validation error, but it is about that one field: show it there.
        if (isApiError(error) && error.code === 'invalid_credentials') wrongPassword = error.serverMessage;
        throw error;
      }
    });
    if (!session) {
      if (wrongPassword) {
        this.form.errors = { current_password: wrongPassword };
        this.form.formError = '';
        this.requestUpdate();
        await focusFirstInvalid(this);
      }
      return;
    }
    this.current = '';
    this.next = '';
    this.notice = t('account.changed');
    // A new session (and CSRF token): the shell hands it to every page.
    this.dispatchEvent(new CustomEvent('aicd-session', { detail: session, bubbles: true, composed: true }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-account-page': AicdAccountPage;
  }
}
