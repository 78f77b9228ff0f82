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

type Registry = Partial<Record<AddonName | 'lit', unknown>>;
const registry = () => ((globalThis as { aiChatWidgetAddons?: Registry }).aiChatWidgetAddons ??= {});

/** What add-ons import of `lit`: the widget's own (their build maps `lit` to this). */
const lit = { css, html, nothing, svg };

export function loadAddon<N extends AddonName>(name: N): Promise<Addon<N>> {
  let module = loaded.get(name);
  if (!module) {
    registry().lit ??= lit;
    module = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = new URL(`ai-chat-widget.${name}.js`, self?.src || location.href).href;
      script.nonce = self?.nonce ?? '';
      const fail = () => {
        loaded.delete(name); // a later need tries again
        reject(new Error(`${script.src} did not load`));
      };
      script.onerror = fail;
      script.onload = () => (registry()[name] ? resolve(registry()[name]) : fail());
      document.head.append(script);
    });
    loaded.set(name, module);
  }
  return module as Promise<Addon<N>>;
}
