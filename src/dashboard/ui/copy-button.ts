import { LitElement, html } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
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
  /** The button's accessible name, e.g. "Copy the script tag". */
  @property() label = 'Copy';
  @state() private result = '';

  override render() {
    return html`<button type="button" @click=${this.copy}>${this.label}</button><span class="status" role="status">${this.result}</span>`;
  }

  private async copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.text);
      this.result = 'Copied.';
    } catch {
      this.result = 'Could not copy: select the text and copy it yourself.';
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-copy-button': AicdCopyButton;
  }
}
