import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { IMAGE_ATTACHMENT_TYPES, type Attachment, type Message } from '../../client/index.js';
import { LocaleController, t } from '../i18n/i18n.js';
import { formatBytes } from './format.js';
import pageStyles from './page.styles.js';

/** Shown inline (the service serves only these inline; everything else downloads). */
const IMAGE_TYPES: ReadonlySet<string> = new Set(IMAGE_ATTACHMENT_TYPES);

/** Where a stored file is read: `GET {base}/attachments/{id}` (the session's cookie on the passthrough). */
export function attachmentUrl(baseUrl: string, id: string): string {
  return `${baseUrl}/attachments/${encodeURIComponent(id)}`;
}

/**
 * The files of one message, as every transcript of the dashboard shows them (the inbox and the
 * conversations page): images as thumbnails that open full size in a new tab, other files as a
 * download link with their size. File names come from visitors, so they are bound as text only;
 * the files themselves are served inert (nosniff, a sandboxing CSP), so opening one runs nothing.
 */
@customElement('aicd-attachment-list')
export class AicdAttachmentList extends LitElement {
  static override styles = [
    pageStyles,
    css`
      ul {
        list-style: none;
        margin: 0.4rem 0 0;
        padding: 0;
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        align-items: end;
      }
      img {
        display: block;
        max-width: 12rem;
        max-height: 9rem;
        width: auto;
        height: auto;
        border: 1px solid var(--aicd-border, #d5d9df);
        border-radius: 6px;
        background: var(--aicd-surface, #fff);
      }
      a {
        color: var(--aicd-link, #1a56db);
        overflow-wrap: anywhere;
      }
    `,
  ];

  @property({ attribute: false }) attachments: readonly Attachment[] = [];
  /** The /v1 base the files are read from: the dashboard client's (`/dashboard/api/v1`). */
  @property({ attribute: false }) baseUrl = '';
  private readonly i18n = new LocaleController(this);

  override render() {
    if (this.attachments.length === 0) return nothing;
    return html`<ul aria-label=${t('attachments.label')}>
      ${this.attachments.map((file) => {
        const url = attachmentUrl(this.baseUrl, file.id);
        return html`<li>
          ${IMAGE_TYPES.has(file.content_type)
            ? html`<a class="image" href=${url} target="_blank" rel="noopener noreferrer">
                <img src=${url} alt=${file.filename} width=${file.width ?? nothing} height=${file.height ?? nothing} loading="lazy" />
                <span class="visually-hidden">(full size, opens in a new tab)</span>
              </a>`
            : html`<a class="file" href=${url} download=${file.filename}>
                <span class="visually-hidden">${t('attachments.download')}</span> ${file.filename} (${formatBytes(file.size)})
              </a>`}
        </li>`;
      })}
    </ul>`;
  }
}

/** A message's files for a transcript line; nothing when it has none. */
export function messageAttachments(message: Pick<Message, 'attachments'>, baseUrl: string) {
  return message.attachments?.length ? html`<aicd-attachment-list .attachments=${message.attachments} .baseUrl=${baseUrl}></aicd-attachment-list>` : nothing;
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-attachment-list': AicdAttachmentList;
  }
}
