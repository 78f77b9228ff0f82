import { LitElement, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { api as defaultApi, type DashboardApi, type InboxCounts, type Session } from './api.js';
import styles from './app.styles.js';
import { LOCALE_NAMES, LOCALES, LocaleController, locale, preferredLocale, setLocale, t, tParts, type Locale } from './i18n/i18n.js';
import './sign-in.js';
import { DEFAULT_ROUTE, loadPage, NAV, navLabel, resolveRoute, routeTitle, type ResolvedRoute } from './routes.js';
import { SessionController } from './session.js';
import type { InboxCountsEvent } from './operator-bar.js';

/** The invite token of an invite link (`/dashboard/#invite=<token>`), if this is one. */
function inviteOf(hash: string): string {
  return /^#invite=([A-Za-z0-9_-]{1,200})$/.exec(hash)?.[1] ?? '';
}

/**
 * The dashboard shell: signed out, the sign-in / sign-up view (with the invite of an invite link);
 * signed in, the navigation and the page of the hash route (routes.ts). Pages get the typed /v1
 * client over the session, the CSRF token and the session itself as properties. Signed in, the
 * operator bar (operator-bar.ts, loaded then) keeps the operator's presence and the inbox's numbers
 * on every page: the Inbox link's badge and the tab title's count are what waits for a person.
 * The language picker sits in the header (and on the sign-in view): i18n/i18n.ts.
 */
@customElement('aicd-app')
export class AicdApp extends LitElement {
  static override styles = styles;

  /** The service API; tests may pass their own instance. */
  @property({ attribute: false }) api: DashboardApi = defaultApi;

  @state() private route: ResolvedRoute | null = null;
  @state() private page: HTMLElement | null = null;
  @state() private pageProblem = '';
  @state() private invite = inviteOf(location.hash);
  /** Waiting, and held by this operator: from the operator bar. */
  @state() private counts: InboxCounts | null = null;
  /** On a narrow screen the navigation folds behind a menu button; open until the next navigation. */
  @state() private menuOpen = false;
  @query('main') private main?: HTMLElement;

  private sessionState?: SessionController;
  private readonly i18n = new LocaleController(this);
  private readonly onHashChange = () => {
    this.menuOpen = false;
    void this.navigate(true);
  };

  override connectedCallback(): void {
    this.sessionState ??= new SessionController(this, this.api);
    super.connectedCallback();
    window.addEventListener('hashchange', this.onHashChange);
    void setLocale(preferredLocale()); // English at once; another language once its chunk is in
    void this.navigate(false);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this.onHashChange);
  }

  get session(): Session | null | undefined {
    return this.sessionState?.session;
  }

  private async navigate(moveFocus: boolean): Promise<void> {
    const invite = inviteOf(location.hash);
    if (invite) {
      this.invite = invite;
      return;
    }
    const route = resolveRoute(location.hash);
    if (!route) {
      // Unknown or empty: the overview, without leaving a history entry for the bad one.
      history.replaceState(null, '', `#/${DEFAULT_ROUTE}`);
      return this.navigate(moveFocus);
    }
    this.route = route;
    this.page = null;
    this.pageProblem = '';
    const problem = await loadPage(route.entry);
    if (this.route !== route) return; // navigated on meanwhile
    if (problem) {
      this.pageProblem = problem;
    } else {
      const page = document.createElement(route.entry.tag);
      Object.assign(page, route.params);
      this.page = page;
    }
    await this.updateComplete;
    if (moveFocus) this.main?.focus(); // screen readers: the new page, not the link that led here
  }

  protected override willUpdate(): void {
    const session = this.session;
    if (this.page && session) Object.assign(this.page, { api: this.api, client: this.api.client, csrfToken: this.api.csrfToken, session });
    if (!session) this.counts = null;
    else if (!customElements.get('aicd-operator-bar')) void import('./operator-bar.js');
  }

  protected override updated(): void {
    const title = t('shell.title', { page: this.route ? routeTitle(this.route.entry) : t('nav.label') });
    const count = this.attention;
    document.title = count ? `(${count}) ${title}` : title;
  }

  /** What waits for this operator: conversations waiting for anyone, and those they hold. */
  private get attention(): number {
    return this.counts ? this.counts.waiting + this.counts.mine : 0;
  }

  override render() {
    const session = this.session;
    if (session === undefined) return html`<p class="notice" role="status">${t('shell.loadingDashboard')}</p>`;
    if (session === null) {
      return html`<div class="signed-out">${this.renderLanguagePicker()}</div>
        <aicd-sign-in
        .api=${this.api}
        .invite=${this.invite}
        .problem=${this.sessionState?.error ?? ''}
        @aicd-signed-in=${this.onSignedIn}
      ></aicd-sign-in>`;
    }
    const current = this.route?.entry.nav;
    // A button, not a link: the hash belongs to the router.
    return html`<button type="button" class="skip" @click=${this.skipToMain}>${t('shell.skip')}</button>
      <header>
        <button type="button" class="menu" aria-expanded=${this.menuOpen ? 'true' : 'false'} aria-controls="nav" @click=${() => (this.menuOpen = !this.menuOpen)}>
          <span aria-hidden="true">☰</span> ${t('nav.label')}
        </button>
        <span class="brand">ai-chat-widget</span>
        <span class="who"
          >${tParts('shell.who', { email: html`<bdi>${session.user.email}</bdi>`, account: html`<bdi>${session.account.name}</bdi>`, role: t(`role.${session.user.role}`) })}</span
        >
        <aicd-operator-bar .api=${this.api} @aicd-inbox-counts=${(e: InboxCountsEvent) => (this.counts = e.counts)}></aicd-operator-bar>
        ${this.renderLanguagePicker()}
        <button type="button" @click=${() => this.sessionState?.signOut()}>${t('shell.signOut')}</button>
      </header>
      <div class="layout">
        <nav id="nav" class=${this.menuOpen ? 'open' : ''} aria-label=${t('nav.label')}>
          <ul>
            ${NAV.map(
              (item) => html`<li>
                <a href=${item.href} aria-current=${item.id === current ? 'page' : nothing} aria-label=${item.id === 'inbox' ? this.inboxLabel() : nothing}
                  >${navLabel(item.id)}${item.id === 'inbox' && this.attention ? html` <span class="badge">${this.attention}</span>` : nothing}</a
                >
              </li>`,
            )}
          </ul>
        </nav>
        <main id="main" tabindex="-1" @aicd-session=${this.onSessionChanged}>${this.renderPage()}</main>
      </div>`;
  }

  private renderPage() {
    if (this.invite) {
      return html`<h1>${t('shell.inviteTitle')}</h1>
        <p>${t('shell.inviteSignedIn')}</p>
        <p><a href="#/${DEFAULT_ROUTE}" @click=${() => (this.invite = '')}>${t('shell.backToDashboard')}</a></p>`;
    }
    if (this.page) return this.page;
    if (this.pageProblem) {
      return html`<h1>${this.route ? routeTitle(this.route.entry) : nothing}</h1>
        <p>${t('shell.coming')}</p>
        <p class="notice">(${this.pageProblem})</p>`;
    }
    return html`<p class="notice" role="status">${t('shell.loading')}</p>`;
  }

  /** Each language named in itself; the choice is kept for the next visit. */
  private renderLanguagePicker() {
    return html`<label class="language"
      >${t('shell.language')}
      <select name="language" @change=${(e: Event) => void setLocale((e.target as HTMLSelectElement).value as Locale, { persist: true })}>
        ${LOCALES.map((code) => html`<option value=${code} lang=${code} ?selected=${code === locale()}>${LOCALE_NAMES[code]}</option>`)}
      </select></label
    >`;
  }

  private inboxLabel() {
    if (!this.attention) return nothing;
    return t('shell.inboxLabel', { waiting: this.counts!.waiting, mine: this.counts!.mine });
  }

  private skipToMain(): void {
    this.main?.focus();
  }

  private onSessionChanged(event: CustomEvent<Session>): void {
    this.sessionState?.set(event.detail);
  }

  private onSignedIn(event: CustomEvent<Session>): void {
    if (this.invite) {
      this.invite = '';
      // The invite token is used up: drop it from the address bar and history.
      history.replaceState(null, '', `#/${DEFAULT_ROUTE}`);
      void this.navigate(false);
    }
    this.sessionState?.set(event.detail);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-app': AicdApp;
  }
}
