/**
 * Optional parts of the widget that a page loads only when it needs them: the strings of a language
 * other than English (a page in German downloads German only), the full-screen modal panel of
 * phones (phone-modal-loader.ts), the reason form after a thumbs down (message-actions.ts), and
 * streamed replies (reply-request.ts), for widgets with `stream`.
 * Add-ons import nothing of the widget at run time but `lit`, which the one-`<script>` build shares
 * with them (`aiChatWidgetAddons.lit`), so a page runs one copy of it. Each is a dynamic import here, which
 * the page's bundler splits off (and the development server serves as it is). The one-`<script>`
 * build replaces this module with `addons-iife.ts`, which loads the same modules from files beside
 * the script (`vite.config.ts`); both have this signature.
 */
export const addons = {
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
  ar: () => import('./locales/ar.js'),
  ja: () => import('./locales/ja.js'),
  phone: () => import('./phone-modal.js'),
  'feedback-form': () => import('./feedback-form.js'),
  stream: () => import('./reply-stream.js'),
};

export type AddonName = keyof typeof addons;
export type Addon<N extends AddonName> = Awaited<ReturnType<(typeof addons)[N]>>;

/** The add-on's module (loaded once, then shared by every widget on the page). */
export function loadAddon<N extends AddonName>(name: N): Promise<Addon<N>> {
  return addons[name]() as Promise<Addon<N>>;
}
