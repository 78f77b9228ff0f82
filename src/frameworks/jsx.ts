/**
 * `ai-chat-widget/jsx` (types only): `<ai-chat-widget>` in React 19 JSX, without the wrapper.
 *
 * @example
 * // once, e.g. in src/main.tsx:
 * import 'ai-chat-widget';
 * import type {} from 'ai-chat-widget/jsx';
 * // then:
 * <ai-chat-widget mode="inline" base-url="/v1" onai-chat-message-received={(e) => log(e.detail.message)} />
 *
 * React 19 sets a prop as a DOM property when the element has one and otherwise as an attribute,
 * and adds `on<event-name>` functions as listeners of `<event-name>`.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { AiChatWidget } from '../widget/core/ai-chat-widget.js';
import type { AiChatWidgetAttributes, AiChatWidgetEventAttributes, AiChatWidgetProperties } from './props.js';

/** The props of `<ai-chat-widget>` in JSX. */
export type AiChatWidgetJsxProps = Omit<
  DetailedHTMLProps<HTMLAttributes<AiChatWidget>, AiChatWidget>,
  keyof AiChatWidgetAttributes
> &
  AiChatWidgetAttributes &
  AiChatWidgetProperties &
  AiChatWidgetEventAttributes;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'ai-chat-widget': AiChatWidgetJsxProps;
    }
  }
}
