import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { OperatorProfile } from '../../client/index.js';
import type { DashboardApi } from '../api.js';
import { errorMessage } from '../ui/errors.js';
import { field } from '../ui/field.js';
import { FormState } from '../ui/form-state.js';
import { LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';

const FIELDS = ['display_name', 'avatar_url'] as const;
/** The service's bounds (operatorProfileInputSchema). */
const NAME_MAX = 80;
const AVATAR_MAX = 2048;

/** The avatar the widget would load: an https URL, else none (the service takes nothing else). */
const httpsUrl = (value: string) => (/^https:\/\/\S+$/.test(value.trim()) ? value.trim() : '');

/**
 * "Your profile": the name and avatar visitors see on this operator's messages and in the widget's
 * handoff banner, with a preview of how they appear. An empty field clears it (the name then falls
 * back to the email's local part).
 */
@customElement('aicd-operator-profile')
export class AicdOperatorProfile extends LitElement {
  static override styles = [
    pageStyles,
    css`
      .preview {
        display: flex;
        align-items: center;
        gap: 0.5rem;
        margin: 0 0 0.75rem;
      }
      .preview img {
        width: 2.5rem;
        height: 2.5rem;
        border-radius: 50%;
        object-fit: cover;
        background: var(--aicd-border, #d5d9df);
      }
    `,
  ];

  /** The dashboard API of the signed-in session. */
  @property({ attribute: false }) api!: DashboardApi;

  @state() private profile: OperatorProfile | null = null;
  @state() private name = '';
  @state() private avatar = '';
  @state() private notice = '';
  @state() private loadError = '';
  private readonly form = new FormState(this);
  private readonly i18n = new LocaleController(this);

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.show(await this.api.operatorProfile());
    } catch (error) {
      this.loadError = errorMessage(error);
    }
  }

  private show(profile: OperatorProfile): void {
    this.profile = profile;
    this.name = profile.name;
    this.avatar = profile.avatar_url ?? '';
  }

  override render() {
    const avatar = httpsUrl(this.avatar);
    return html`<form @submit=${this.save} novalidate>
        <fieldset>
          <legend>${t('profile.title')}</legend>
          <p class="hint">${t('profile.hint')}</p>
          ${this.loadError ? html`<p class="error" role="alert">${this.loadError}</p>` : nothing}
          ${field({
            name: 'display_name',
            label: t('profile.name'),
            value: this.name,
            maxlength: NAME_MAX,
            error: this.form.errors.display_name,
            hint: t('profile.nameHint', { max: NAME_MAX }),
            onInput: (v) => (this.name = v),
          })}
          ${field({
            name: 'avatar_url',
            label: t('bots.avatarUrl'),
            type: 'url',
            value: this.avatar,
            maxlength: AVATAR_MAX,
            error: this.form.errors.avatar_url,
            hint: t('profile.avatarHint'),
            onInput: (v) => (this.avatar = v),
          })}
          <div class="preview" role="group" aria-label=${t('profile.preview')}>
            ${avatar ? html`<img src=${avatar} alt=${t('profile.avatar')} />` : nothing}<span>${this.name.trim() || this.profile?.name || ''}</span>
          </div>
          <p class="error" role="alert">${this.form.formError}</p>
          <button class="primary" type="submit" ?disabled=${this.form.saving || !this.profile}>${t('profile.save')}</button>
        </fieldset>
      </form>
      <p class="status" role="status">${this.notice}</p>`;
  }

  private async save(event: Event): Promise<void> {
    event.preventDefault();
    this.notice = '';
    const avatar = this.avatar.trim();
    if (avatar && !httpsUrl(avatar)) return this.form.refuse({ avatar_url: t('profile.https') });
    const saved = await this.form.submit(FIELDS, () => this.api.setOperatorProfile({ display_name: this.name.trim() || null, avatar_url: avatar || null }));
    if (!saved) return;
    this.show(saved);
    this.notice = t('profile.saved');
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-operator-profile': AicdOperatorProfile;
  }
}
