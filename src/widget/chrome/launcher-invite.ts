/**
 * A launcher that invites: the unread badge (replies that arrived while the
 * panel was closed; cleared when it opens) and the optional teaser bubble (shown `teaser-delay` ms
 * after connecting, until opened or dismissed; a dismissal is remembered for the visitor in the
 * widget's storage, so it is not shown again). Both are said politely by one live region.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { AiChatMessageReceivedEvent } from '../core/events.js';
import { chatIcon, closeIcon, helpIcon } from '../core/icons.js';
import { safeAvatar } from './chat-chrome.js';
import { fillCount } from '../composer/input-limit.js';
import type { WidgetStorage } from '../conversation/storage.js';
import type { WidgetStrings } from '../locales/strings.js';

export interface InviteHost extends ReactiveControllerHost, HTMLElement {
  mode: string;
  opened: boolean;
  teaser: string;
  teaserDelay: number;
  launcherIcon?: string;
  open(): Promise<void>;
  toggle(): void;
}

/** The launcher's icon: a built-in one by name (`chat`, `help`), or an image's URL (`safeAvatar`'s schemes). */
function launcherIcon(icon?: string): TemplateResult {
  const url = safeAvatar(icon);
  return url ? html`<img class="icon" src=${url} alt="" />` : icon === 'help' ? helpIcon : chatIcon;
}

export class LauncherInvite implements ReactiveController {
  /** Replies that arrived while the launcher's panel was closed. */
  unread = 0;
  private teaserShown = false;
  private dismissed = false;
  private timer?: ReturnType<typeof setTimeout>;

  /** @param storage where the dismissal is kept: the widget's storage (mode and scope). */
  constructor(
    private readonly host: InviteHost,
    private readonly storage: () => WidgetStorage,
  ) {
    host.addController(this);
    host.addEventListener(AiChatMessageReceivedEvent.eventName, () => {
      if (host.mode !== 'launcher' || host.opened) return;
      this.unread++;
      host.requestUpdate();
    });
  }

  hostConnected(): void {
    // after the first update, so the attributes (teaser, teaser-delay, storage) have landed
    void this.host.updateComplete.then(() => {
      const { host } = this;
      if (!host.isConnected || !host.teaser || host.mode !== 'launcher') return;
      this.dismissed ||= this.storage().loadTeaserDismissed();
      if (this.dismissed) return;
      this.timer = setTimeout(() => {
        this.teaserShown = true;
        host.requestUpdate();
      }, Math.max(0, host.teaserDelay) || 0);
    });
  }

  hostDisconnected(): void {
    clearTimeout(this.timer);
    this.teaserShown = false;
  }

  hostUpdate(): void {
    // opening the panel reads the replies and answers the teaser for this page (a visitor who has
    // chatted is not invited again when the panel closes; only a dismissal is kept in storage)
    if (this.host.opened) {
      this.unread = 0;
      this.teaserShown = false;
      this.dismissed = true;
      clearTimeout(this.timer);
    }
  }

  /** The visitor closed the teaser: it is not shown again (kept in the widget's storage). */
  dismiss(): void {
    clearTimeout(this.timer);
    this.teaserShown = false;
    this.dismissed = true;
    this.storage().saveTeaserDismissed();
    this.host.requestUpdate();
  }

  /**
   * The launcher button (a close icon while the panel is open; hidden outside launcher mode), the
   * badge over it, the teaser bubble, and the polite announcement of either.
   */
  render(s: WidgetStrings, lang: string): TemplateResult {
    const { unread, host } = this;
    const { opened } = host;
    const said = unread ? fillCount(s.unread, lang, unread) : '';
    const teaser = this.teaserShown && !opened ? host.teaser : '';
    // the launcher's label carries the count (`said`); the badge beside it only shows it
    return html`<button part="launcher" class="launcher" type="button" aria-controls="panel" ?hidden=${host.mode !== 'launcher'}
        aria-expanded=${opened ? 'true' : 'false'}
        aria-label=${opened ? s.hideChat : said ? `${s.openChat} (${said})` : s.openChat}
        @click=${() => host.toggle()}><slot name="launcher-icon" ?hidden=${opened}>${launcherIcon(host.launcherIcon)}</slot>${opened
          ? closeIcon
          : nothing}</button>${unread
        ? html`<span part="badge" class="badge" aria-hidden="true">${new Intl.NumberFormat(lang).format(unread)}</span>`
        : nothing}${teaser
        ? html`<div part="teaser" class="teaser suggestions">
            <button part="teaser-text" type="button" @click=${() => void this.host.open()}>${teaser}</button>
            <button part="teaser-close" class="icon-button" type="button" aria-label=${s.dismiss}
              @click=${() => this.dismiss()}>${closeIcon}</button>
          </div>`
        : nothing}<div class="sr-only" aria-live="polite">${said || teaser}</div>`;
  }
}
