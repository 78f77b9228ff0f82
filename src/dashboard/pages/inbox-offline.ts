import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { OfflineMessage } from '../../client/index.js';
import { formatDate } from '../ui/format.js';
import pageStyles from '../ui/page.styles.js';

/** The inbox's messages left while nobody was online (the visitor's email and text), newest first; nothing when there are none. */
@customElement('aicd-offline-messages')
export class AicdOfflineMessages extends LitElement {
  static override styles = [
    pageStyles,
    css`
      td {
        overflow-wrap: anywhere;
      }
    `,
  ];

  @property({ attribute: false }) messages: OfflineMessage[] = [];

  override render() {
    if (this.messages.length === 0) return nothing;
    return html`<section class="offline" aria-labelledby="offline-heading">
      <h2 id="offline-heading">Left while nobody was online</h2>
      <table>
        <caption>Messages waiting for a reply by email, newest first</caption>
        <thead><tr><th scope="col">Received</th><th scope="col">Email</th><th scope="col">Message</th></tr></thead>
        <tbody>
          ${this.messages.map((m) => html`<tr><td>${formatDate(m.created_at)}</td><td>${m.email}</td><td>${m.message}</td></tr>`)}
        </tbody>
      </table>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-offline-messages': AicdOfflineMessages;
  }
}
