/**
 * What the widget authenticates with, as its attributes and properties give it. Types only: the
 * element's configuration names them without importing the connection's code (which loads the
 * token-diagnosis add-on, whose catalog leads back to the configuration).
 */
import type { GetTokenContext } from '../../client/index.js';

/** Whether the token request carries cookies: same-origin only (the default), or also to another origin. */
export type TokenCredentials = 'same-origin' | 'include';

export interface Credentials {
  /** The `base-url` attribute; empty: the default (see client-provider.ts). */
  baseUrl: string;
  apiKey: string;
  token: string;
  tokenUrl: string;
  /** Cookies on the `token-url` request: `same-origin` (default) or `include` (a proxy on another origin). */
  tokenCredentials: TokenCredentials;
  getToken: ((ctx: GetTokenContext) => Promise<string>) | undefined;
}
