import { LitElement, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { DashboardApi, Session, SignupInfo } from './api.js';
import { LocaleController, t } from './i18n/i18n.js';
import { errorMessage } from './ui/errors.js';
import { field } from './ui/field.js';
import { FormState } from './ui/form-state.js';
import pageStyles from './ui/page.styles.js';
import styles from './sign-in.styles.js';

type Mode = 'sign-in' | 'sign-up';

const FIELDS = ['email', 'password', 'account_name', 'invite'] as const;

/**
 * Sign-in and sign-up. Sign-up is offered when the service would accept it: to the first person
 * of an install (who becomes the owner of the existing account), with an invite link, or when
 * sign-up is open. Fires `aicd-signed-in` with the session.
 */
@customElement('aicd-sign-in')
export class AicdSignIn extends LitElement {
  static override styles = [pageStyles, styles];

  @property({ attribute: false }) api!: DashboardApi;
  /** The token of the invite link the page was opened with. */
  @property({ attribute: false }) invite = '';
  /** Why the session could not be checked (the service unreachable). */
  @property({ attribute: false }) problem = '';

  @state() private mode: Mode | undefined;
  @state() private info: SignupInfo | null = null;
  @state() private email = '';
  @state() private password = '';
  @state() private accountName = '';
  /** Why the sign-up policy could not be read. */
  @state() private infoError = '';
  private readonly form = new FormState(this);
  private readonly i18n = new LocaleController(this);

  override connectedCallback(): void {
    super.connectedCallback();
    void this.api.signupInfo().then(
      (info) => {
        this.info = info;
        this.mode ??= this.invite || !info.install_claimed ? 'sign-up' : 'sign-in';
      },
      (error: unknown) => {
        this.infoError = errorMessage(error);
        this.mode ??= 'sign-in';
      },
    );
  }

  private get canSignUp(): boolean {
    if (this.invite) return true;
    // Unknown until the service answers: a sign-up started earlier would lack the account-name field
    // (shown once the install is claimed). A service that cannot say lets them try.
    if (!this.info) return Boolean(this.infoError);
    return !this.info.install_claimed || this.info.policy === 'open';
  }

  override render() {
    const signingUp = this.mode === 'sign-up';
    const first = this.info && !this.info.install_claimed;
    return html`<main>
      <h1>${t(signingUp ? (first ? 'signIn.setUp' : 'signIn.createYourAccount') : 'signIn.signIn')}</h1>
      ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
      ${signingUp && first ? html`<p class="hint">${t('signIn.first')}</p>` : nothing}
      ${signingUp && this.invite ? html`<p class="hint">${t('signIn.invited')}</p>` : nothing}
      <form @submit=${this.submit} novalidate>
        ${field({ name: 'email', label: t('signIn.email'), type: 'email', value: this.email, error: this.form.errors.email, onInput: (v) => (this.email = v) })}
        ${field({
          name: 'password',
          label: t('signIn.password'),
          type: 'password',
          value: this.password,
          error: this.form.errors.password,
          hint: signingUp ? t('signIn.passwordHint') : undefined,
          onInput: (v) => (this.password = v),
        })}
        ${signingUp && !this.invite && this.info?.install_claimed
          ? field({ name: 'account_name', label: t('signIn.accountName'), value: this.accountName, error: this.form.errors.account_name, onInput: (v) => (this.accountName = v) })
          : nothing}
        ${this.form.errors.invite ? html`<p class="error">${this.form.errors.invite}</p>` : nothing}
        <p class="error" role="alert">${this.form.formError || this.infoError}</p>
        <button class="primary" type="submit" ?disabled=${this.form.saving || !this.mode}>${t(signingUp ? 'signIn.createAccount' : 'signIn.signIn')}</button>
      </form>
      ${this.renderSwitch(signingUp)}
    </main>`;
  }

  private renderSwitch(signingUp: boolean) {
    if (!this.info && !this.infoError) return nothing; // still asking the service
    if (signingUp && this.info?.install_claimed) {
      return html`<p class="switch">${t('signIn.haveAccount')} <button type="button" class="link" @click=${() => this.switchTo('sign-in')}>${t('signIn.signIn')}</button></p>`;
    }
    if (!signingUp && this.canSignUp) {
      return html`<p class="switch">${t('signIn.newHere')} <button type="button" class="link" @click=${() => this.switchTo('sign-up')}>${t('signIn.createAnAccount')}</button></p>`;
    }
    if (!signingUp && this.info?.policy === 'closed') return html`<p class="switch hint">${t('signIn.closed')}</p>`;
    if (!signingUp) return html`<p class="switch hint">${t('signIn.inviteOnly')}</p>`;
    return nothing;
  }

  private switchTo(mode: Mode): void {
    this.mode = mode;
    this.form.reset();
  }

  private async submit(event: Event): Promise<void> {
    event.preventDefault();
    const signUp = this.mode === 'sign-up';
    const session = await this.form.submit<Session>(FIELDS, () =>
      signUp
        ? this.api.signUp({
            email: this.email,
            password: this.password,
            ...(this.invite ? { invite: this.invite } : {}),
            ...(this.accountName.trim() ? { account_name: this.accountName.trim() } : {}),
          })
        : this.api.signIn(this.email, this.password),
    );
    if (!session) return;
    this.password = '';
    this.dispatchEvent(new CustomEvent('aicd-signed-in', { detail: session, bubbles: true, composed: true }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-sign-in': AicdSignIn;
  }
}
