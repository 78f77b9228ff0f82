/**
 * `ai-chat-widget/vue` (types only): `<ai-chat-widget>` as a typed global component in Vue 3
 * templates (checked by vue-tsc / Volar) and TSX.
 *
 * @example
 * // env.d.ts (or any .ts file in the project):
 * import type {} from 'ai-chat-widget/vue';
 * // vite.config.ts: vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'ai-chat-widget' } } })
 * // template:
 * <ai-chat-widget mode="inline" base-url="/v1" @ai-chat-message-received="onReply" />
 *
 * Vue sets a prop as a DOM property when the element has one, else as an attribute, and turns
 * `@ai-chat-ready` into a listener of `ai-chat-ready`.
 */
import type { DefineComponent } from 'vue';
import type { AiChatWidget } from '../widget/core/ai-chat-widget.js';
import type { AiChatWidgetAttributeProperty, AiChatWidgetEventProps, AiChatWidgetProperties } from './props.js';

/** The props of `<ai-chat-widget>` in Vue, camelCased as Vue normalises them (`base-url` → `baseUrl`). */
export type AiChatWidgetVueProps = Partial<Pick<AiChatWidget, AiChatWidgetAttributeProperty | 'lang'>> &
  AiChatWidgetProperties &
  AiChatWidgetEventProps & { dir?: 'ltr' | 'rtl' | 'auto' };

declare module 'vue' {
  interface GlobalComponents {
    'ai-chat-widget': DefineComponent<AiChatWidgetVueProps>;
  }
}
