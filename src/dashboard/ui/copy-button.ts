import { LitElement, html } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { LocaleController, t } from '../i18n/i18n.js';
import pageStyles from './page.styles.js';

/**
 * A button that copies `text` to the clipboard and says so in a polite live region, so screen
 * reader users hear that it worked. Without clipboard access (an insecure origin, a denied
 * permission) it says that the copy failed instead of pretending.
 */
@customElement('aicd-copy-button')
export class AicdCopyButton extends LitElement {
  static override styles = pageStyles;

  @property() text = '';
  /** The button's accessible name, e.g. "Copy the script tag" (empty: "Copy", translated). */
  @property() label = '';
  @state() private result = '';
  private readonly i18n = new LocaleController(this);

  override render() {
    return html`<button type="button" @click=${this.copy}>${this.label || t('copy.copy')}</button><span class="status" role="status">${this.result}</span>`;
  }

  private async copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.text);
      this.result = t('copy.copied');
    } catch {
      this.result = t('copy.failed');
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-copy-button': AicdCopyButton;
  }
}
