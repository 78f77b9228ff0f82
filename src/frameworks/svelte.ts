/**
 * `ai-chat-widget/svelte` (types only): `<ai-chat-widget>` in Svelte 5 markup (svelte-check).
 *
 * @example
 * // src/app.d.ts:
 * import type {} from 'ai-chat-widget/svelte';
 * // markup:
 * <ai-chat-widget mode="inline" base-url="/v1" onai-chat-message-received={(e) => log(e.detail.message)} />
 *
 * Svelte sets a prop as a DOM property when the element has one, else as an attribute, and adds
 * `on<event-name>` functions as listeners (`on:<event-name>` in Svelte 4 syntax).
 */
import type { HTMLAttributes } from 'svelte/elements';
import type { AiChatWidget } from '../widget/core/ai-chat-widget.js';
import type {
  AiChatWidgetAttributes,
  AiChatWidgetEventAttributes,
  AiChatWidgetEventMap,
  AiChatWidgetProperties,
} from './props.js';

/** Svelte 4's `on:ai-chat-ready` directive form. */
export type AiChatWidgetSvelteDirectives = {
  [K in keyof AiChatWidgetEventMap as `on:${K}`]?: (event: AiChatWidgetEventMap[K]) => void;
};

/** The props of `<ai-chat-widget>` in Svelte markup. */
export type AiChatWidgetSvelteProps = Omit<HTMLAttributes<AiChatWidget>, keyof AiChatWidgetAttributes> &
  AiChatWidgetAttributes &
  AiChatWidgetProperties &
  AiChatWidgetEventAttributes &
  AiChatWidgetSvelteDirectives;

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'ai-chat-widget': AiChatWidgetSvelteProps;
  }
}
