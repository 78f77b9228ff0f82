/**
 * Optional parts of the widget that a page loads only when it needs them: the strings of a language
 * other than English (a page in German downloads German only), the full-screen modal panel of
 * phones (phone-modal-loader.ts), the reason form after a thumbs down (message-actions.ts), and
 * streamed replies (reply-request.ts), for widgets with `stream`, human handoff
 * (handoff-loader.ts), for bots whose handoff is on, and attachments (attachments-loader.ts), for
 * bots that take files.
 *
 * Each is a dynamic import here, which the page's bundler splits off (and the development server
 * serves as it is), and the all-in-one script (`ai-chat-widget.all.iife.js`) bundles in. The
 * one-`<script>` build replaces this module with `addons-iife.ts`, which loads the same modules from
 * files beside the script (`vite.config.ts`); both have this signature. There
 * an add-on shares only `lit` with the widget (`aiChatWidgetAddons.lit`): anything else it imports
 * is a copy of its own, so it must hold no state the widget shares (the client's errors, for one,
 * are recognised by name, not by class).
 */
export const addons = {
  de: () => import('../locales/de.js'),
  fr: () => import('../locales/fr.js'),
  es: () => import('../locales/es.js'),
  ar: () => import('../locales/ar.js'),
  ja: () => import('../locales/ja.js'),
  phone: () => import('./phone-modal.js'),
  'feedback-form': () => import('./feedback-form.js'),
  stream: () => import('./reply-stream.js'),
  handoff: () => import('./handoff.js'),
  attachments: () => import('./attachments.js'),
};

export type AddonName = keyof typeof addons;
export type Addon<N extends AddonName> = Awaited<ReturnType<(typeof addons)[N]>>;

/** The add-on's module (loaded once, then shared by every widget on the page). */
export function loadAddon<N extends AddonName>(name: N): Promise<Addon<N>> {
  return addons[name]() as Promise<Addon<N>>;
}
