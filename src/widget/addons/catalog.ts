/**
 * Optional parts of the widget that a page loads only when it needs them: the strings of a language
 * other than English (a page in German downloads German only), the full-screen modal panel of
 * phones (phone-modal-loader.ts), the reason form after a thumbs down (message-actions.ts),
 * streamed replies (reply-request.ts), for widgets with `stream`, human handoff
 * (handoff-loader.ts), for bots whose handoff is on, attachments (attachments-loader.ts), for
 * bots that take files, and the satisfaction survey (csat-survey.ts), which the handoff add-on
 * loads when an operator ends their part of a conversation. Every one of them is loaded through `loader.ts`.
 *
 * Each is a dynamic import here, which the page's bundler splits off (and the development server
 * serves as it is), and the all-in-one script (`ai-chat-widget.all.iife.js`) bundles in. The
 * one-`<script>` build replaces this module with `catalog-iife.ts`, which fetches the same modules
 * from files beside the script (`vite.config.ts`); both export `fetchAddon`. There an add-on
 * shares only `lit` with the widget (`aiChatWidgetAddons.lit`): anything else it imports is a copy
 * of its own, so it must hold no state the widget shares (the client's errors, for one, are
 * recognised by name, not by class). No add-on imports `loader.ts`, so no import leads back here.
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
  // what a failed token request means, told to the console (token-source.ts)
  'token-diagnosis': () => import('./token-diagnosis.js'),
  csat: () => import('./csat-survey.js'),
};

export type AddonName = keyof typeof addons;
export type Addon<N extends AddonName> = Awaited<ReturnType<(typeof addons)[N]>>;

/** Fetches the add-on's module; rejects with what could not be loaded (a string, for the console). */
export function fetchAddon<N extends AddonName>(name: N): Promise<Addon<N>> {
  return (addons[name]() as Promise<Addon<N>>).catch((error: Error) => {
    throw `the ${name} add-on (${error.message})`;
  });
}
