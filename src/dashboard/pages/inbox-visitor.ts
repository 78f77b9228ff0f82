import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { HandoffStatus, InboxVisitor, StoredVisitor } from '../../client/index.js';
import { api as defaultApi, type DashboardApi } from '../api.js';
import { labels, locale, LocaleController, t } from '../i18n/i18n.js';
import { errorMessage } from '../ui/errors.js';
import { formatDate } from '../ui/format.js';
import pageStyles from '../ui/page.styles.js';

const STATUS = labels<HandoffStatus>({ bot: 'visitor.withBot', waiting: 'visitor.waiting', with_person: 'visitor.withPerson', closed: 'visitor.closed' });

/** A page the visitor was on, as a link when it is an http(s) URL (the service takes no other), else as text. */
function pageLink(url: string | undefined) {
  if (!url) return nothing;
  let safe: URL | null = null;
  try {
    safe = new URL(url);
  } catch {
    // shown as text
  }
  return safe && (safe.protocol === 'https:' || safe.protocol === 'http:')
    ? html`<a href=${safe.href} target="_blank" rel="noopener noreferrer">${url}</a>`
    : url;
}

/** The time in the visitor's time zone ("16:05"), or nothing for a zone this browser does not know. */
function localTime(timeZone: string, now: number): string | null {
  try {
    return new Intl.DateTimeFormat(locale(), { timeStyle: 'short', timeZone }).format(now);
  } catch {
    return null;
  }
}

/**
 * The open conversation's visitor in the inbox: what the widget told (name and email, marked
 * unverified unless the site's token proxy vouched for them; the page, the first page, the referrer,
 * locale, their local time, the site's other traits) and the visitor's other conversations, newest
 * first, each a link to it. Everything the visitor sent is rendered through text bindings only.
 */
@customElement('aicd-inbox-visitor')
export class AicdInboxVisitor extends LitElement {
  static override styles = [
    pageStyles,
    css`
      dl {
        display: grid;
        grid-template-columns: max-content 1fr;
        gap: 0.25rem 1rem;
        margin: 0;
      }
      dd {
        margin: 0;
        overflow-wrap: anywhere;
      }
      .unverified {
        font-size: 0.85em;
        font-style: italic;
      }
    `,
  ];

  /** The dashboard API of the signed-in session. */
  @property({ attribute: false }) api: DashboardApi = defaultApi;
  /** The conversation whose visitor is shown. */
  @property({ attribute: false }) conversationId = '';
  /** The clock the visitor's local time is shown at (the inbox redraws it). */
  @property({ attribute: false }) now = Date.now();

  @state() private info: InboxVisitor | null = null;
  @state() private error = '';
  private readonly i18n = new LocaleController(this);

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('conversationId') || changed.has('api')) void this.load();
  }

  private async load(): Promise<void> {
    const id = this.conversationId;
    this.info = null;
    this.error = '';
    if (!id) return;
    try {
      const info = await this.api.inboxVisitor(id);
      if (id === this.conversationId) this.info = info;
    } catch (error) {
      if (id === this.conversationId) this.error = errorMessage(error);
    }
  }

  private renderTraits(v: StoredVisitor) {
    const unverified = v.verified ? nothing : html` <span class="unverified" title=${t('visitor.unverifiedTitle')}>${t('visitor.unverified')}</span>`;
    const time = v.time_zone ? localTime(v.time_zone, this.now) : null;
    const rows: [string, unknown][] = [
      [t('common.name'), v.name && html`${v.name}${unverified}`],
      [t('signIn.email'), v.email && html`${v.email}${unverified}`],
      [t('visitor.page'), pageLink(v.page_url)],
      [t('visitor.firstPage'), v.first_page_url !== v.page_url && pageLink(v.first_page_url)],
      [t('visitor.cameFrom'), pageLink(v.referrer)],
      [t('common.language'), v.locale],
      [t('visitor.localTime'), v.time_zone && `${time ?? ''} (${v.time_zone})`.trim()],
      ...Object.entries(v.attributes ?? {}).map(([name, value]): [string, unknown] => [name, String(value)]),
    ];
    return html`<dl>${rows.filter(([, value]) => value && value !== nothing).map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>`;
  }

  override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
    const info = this.info;
    if (!info) return nothing;
    return html`<section class="visitor" aria-labelledby="visitor-heading">
      <h3 id="visitor-heading">${t('visitor.title')}</h3>
      ${info.visitor ? this.renderTraits(info.visitor) : html`<p class="meta">${t('visitor.nothing')}</p>`}
      <h4 id="earlier-heading">${t('visitor.earlier')}</h4>
      ${info.earlier.length
        ? html`<ul aria-labelledby="earlier-heading" class="earlier">
            ${info.earlier.map((c) => html`<li><a href=${`#/conversations/${encodeURIComponent(c.id)}`}>${formatDate(c.created_at)}</a> · ${STATUS[c.status]}</li>`)}
          </ul>`
        : html`<p class="meta">${t(info.user_id ? 'visitor.none' : 'visitor.noUserId')}</p>`}
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-inbox-visitor': AicdInboxVisitor;
  }
}
