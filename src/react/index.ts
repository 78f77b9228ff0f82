'use client';

/**
 * `ai-chat-widget/react`: `<AiChatWidget>`, a React component for `<ai-chat-widget>` made with
 * `@lit/react`. Props are set as element properties (so objects and functions such as `strings`,
 * `starters` and `getToken` work), events arrive through typed `onAiChat…` props, and a `ref`
 * gives the element itself (`ref.current.send('hi')`).
 *
 * The conversation lives in the element, not in React state: re-rendering with new props or a
 * parent's state change updates the same element and keeps the transcript. A remount (a new
 * `key`, a route change) creates a new element, which restores the conversation from `storage`
 * (`local` by default) and the service's history.
 *
 * @example
 * import { AiChatWidget } from 'ai-chat-widget/react';
 *
 * <AiChatWidget mode="inline" tokenUrl="/proxy/token" starters={['Pricing']}
 *   onAiChatMessageReceived={(e) => console.log(e.detail.message.content)} />
 */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import '../ai-chat-widget.js'; // registers <ai-chat-widget> (guarded; a no-op without a DOM)
import { AiChatWidget as AiChatWidgetElement } from '../widget/core/ai-chat-widget.js';
import type { PascalCase } from '../frameworks/props.js';
import { aiChatEvents, type AiChatWidgetEventMap } from '../widget/core/events.js';

/** `ai-chat-ready` -> `AiChatReady`, as the `PascalCase` type does. */
const pascalCase = (name: string) => name.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase());

/** React prop name -> event name (`onAiChatReady` -> `ai-chat-ready`), from the element's one list of events. */
const events = Object.fromEntries(
  aiChatEvents.map(({ eventName }) => [`on${pascalCase(eventName)}`, eventName]),
) as { [K in keyof AiChatWidgetEventMap as `on${PascalCase<K>}`]: EventName<AiChatWidgetEventMap[K]> };

/**
 * `<ai-chat-widget>` as a React component. Use the element's property names (`baseUrl`, `botId`,
 * `welcomeMessage`, `opened`, …), not its attribute names.
 */
export const AiChatWidget = createComponent({
  react: React,
  tagName: 'ai-chat-widget',
  elementClass: AiChatWidgetElement,
  events,
  displayName: 'AiChatWidget',
});

/** The props `<AiChatWidget>` accepts. */
export type AiChatWidgetProps = React.ComponentProps<typeof AiChatWidget>;

export type { AiChatWidgetElement };
export * from '../widget/core/events.js';
