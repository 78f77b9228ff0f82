/**
 * The signed-in state of the dashboard as a Lit controller: `undefined` while asking the service,
 * `null` signed out, else the session. It follows the API: a 401 anywhere (the session ended
 * elsewhere) signs the shell out.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { DashboardApi, Session } from './api.js';
import { t } from './i18n/i18n.js';

export class SessionController implements ReactiveController {
  session: Session | null | undefined = undefined;
  /** Why the first check failed (the service unreachable), shown instead of the sign-in form. */
  error = '';

  private readonly onEnded = () => this.set(null);

  constructor(
    private readonly host: ReactiveControllerHost,
    readonly api: DashboardApi,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.api.addEventListener('session-ended', this.onEnded);
    if (this.session === undefined) void this.refresh();
  }

  hostDisconnected(): void {
    this.api.removeEventListener('session-ended', this.onEnded);
  }

  async refresh(): Promise<void> {
    try {
      this.error = '';
      this.set(await this.api.me());
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
      this.set(null);
    }
  }

  set(session: Session | null): void {
    this.session = session;
    this.host.requestUpdate();
  }

  async signOut(): Promise<void> {
    try {
      await this.api.signOut(); // signed out in this page either way (api.ts)
    } catch (error) {
      this.error = t('shell.signOutUnconfirmed', { error: error instanceof Error ? error.message : String(error) });
      this.set(null);
    }
  }
}
