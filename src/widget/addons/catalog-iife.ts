/**
 * `addons.ts` for the one-`<script>` build (`dist/ai-chat-widget.iife.js`), which cannot split code:
 * add-on `N` is the file `ai-chat-widget.N.js` beside the script, a classic script that puts its
 * module into `aiChatWidgetAddons[N]` (built by `scripts/build-addons.mjs`). A classic script, not a
 * module, so that a copy served from another origin needs no CORS; it carries the loading script's
 * nonce, so a page whose CSP allows that script by nonce allows its add-ons too. Add-ons find the
 * widget's `lit` in `aiChatWidgetAddons.lit` (see `addon()` in vite.config.ts).
 */
import { css, html, nothing, svg } from 'lit';
import type { Addon, AddonName } from './addons.js';

/** The script that defined the widget (read while it runs; `null` once it has run). */
const self = document.currentScript as HTMLScriptElement | null;
const loaded = new Map<AddonName, Promise<unknown>>();
/** Add-ons named in the console already: each missing one once, with what to copy. */
const warned = new Set<AddonName>();

type Registry = Partial<Record<AddonName | 'lit', unknown>>;
const registry = () => ((globalThis as { aiChatWidgetAddons?: Registry }).aiChatWidgetAddons ??= {});

/** What add-ons import of `lit`: the widget's own (their build maps `lit` to this). */
const lit = { css, html, nothing, svg };

export function loadAddon<N extends AddonName>(name: N): Promise<Addon<N>> {
  let module = loaded.get(name);
  if (!module) {
    registry().lit ??= lit;
    const file = `ai-chat-widget.${name}.js`;
    let src = self?.src || location.href;
    module = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src = new URL(file, src).href; // throws for a script of its own (a blob: URL) with no folder
      script.nonce = self?.nonce ?? '';
      script.onerror = reject;
      script.onload = () => (registry()[name] ? resolve(registry()[name]) : reject());
      document.head.append(script);
    }).catch(() => {
      loaded.delete(name); // a later need tries again
      if (!warned.has(name)) console.warn(`ai-chat-widget: could not load ${file} from ${src}; copy the whole dist/ folder's ai-chat-widget.*.js files beside ai-chat-widget.iife.js`);
      warned.add(name);
      throw new Error(`${src} did not load`);
    });
    loaded.set(name, module);
  }
  return module as Promise<Addon<N>>;
}
