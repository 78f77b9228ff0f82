/**
 * `catalog.ts` for the one-`<script>` build (`dist/ai-chat-widget.iife.js`), which cannot split code:
 * add-on `N` is the file `ai-chat-widget.N.js` beside the script, a classic script that puts its
 * module into `aiChatWidgetAddons[N]` (built by `scripts/build-addons.mjs`). A classic script, not a
 * module, so that a copy served from another origin needs no CORS; it carries the loading script's
 * nonce, so a page whose CSP allows that script by nonce allows its add-ons too. Add-ons find the
 * widget's `lit` in `aiChatWidgetAddons.lit` (see `addon()` in vite.config.ts). Caching, retrying
 * and naming a missing file are `loader.ts`'s, as in every build.
 */
import { css, html, nothing, svg } from 'lit';
import type { Addon, AddonName } from './catalog.js';

/** The script that defined the widget (read while it runs; `null` once it has run). */
const self = document.currentScript as HTMLScriptElement | null;

type Registry = Partial<Record<AddonName | 'lit', unknown>>;
const registry = () => ((globalThis as { aiChatWidgetAddons?: Registry }).aiChatWidgetAddons ??= {});

/** What add-ons import of `lit`: the widget's own (their build maps `lit` to this). */
const lit = { css, html, nothing, svg };

export function fetchAddon<N extends AddonName>(name: N): Promise<Addon<N>> {
  registry().lit ??= lit;
  const file = `ai-chat-widget.${name}.js`;
  let src = self?.src || location.href;
  return new Promise<Addon<N>>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src = new URL(file, src).href; // throws for a script of its own (a blob: URL) with no folder
    script.nonce = self?.nonce ?? '';
    script.onerror = reject;
    script.onload = () => resolve((registry()[name] as Addon<N>) ?? Promise.reject()); // loaded, but not an add-on
    document.head.append(script);
  }).catch(() => {
    throw `${file} from ${src}; copy the whole dist/ folder's ai-chat-widget.*.js files beside ai-chat-widget.iife.js`;
  });
}
