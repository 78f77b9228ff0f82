import { LitElement, html } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { LocaleController, t } from '../i18n/i18n.js';
import styles from './confirm-dialog.styles.js';

export interface ConfirmRequest {
  title: string;
  /** Plain text: hostile names are rendered as text like everywhere else. */
  message: string;
  confirmLabel: string;
}

/**
 * A modal yes/no question for destructive actions. It is a native `<dialog>` opened with
 * `showModal()`, so the browser traps focus, makes the page inert and closes it on Escape; the
 * safe choice (Cancel) has the focus first, so Enter alone never deletes anything.
 */
@customElement('aicd-confirm-dialog')
export class AicdConfirmDialog extends LitElement {
  static override styles = styles;

  @state() private request: ConfirmRequest | null = null;
  @query('dialog') private dialog!: HTMLDialogElement;
  private settle?: (confirmed: boolean) => void;
  private readonly i18n = new LocaleController(this);

  /** Opens the dialog; resolves true for the confirm button, false for Cancel or Escape. */
  async ask(request: ConfirmRequest): Promise<boolean> {
    this.settle?.(false);
    this.request = request;
    await this.updateComplete;
    this.dialog.showModal();
    return new Promise((resolve) => (this.settle = resolve));
  }

  override render() {
    const request = this.request;
    return html`<dialog aria-labelledby="title" aria-describedby="message" @close=${this.onClose}>
      <h2 id="title">${request?.title}</h2>
      <p id="message">${request?.message}</p>
      <form method="dialog">
        <button value="cancel" autofocus>${t('confirm.cancel')}</button>
        <button value="confirm" class="danger">${request?.confirmLabel}</button>
      </form>
    </dialog>`;
  }

  private onClose(): void {
    const settle = this.settle;
    this.settle = undefined;
    settle?.(this.dialog.returnValue === 'confirm');
    this.dialog.returnValue = '';
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-confirm-dialog': AicdConfirmDialog;
  }
}
