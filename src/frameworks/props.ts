/**
 * Framework-neutral typings of `<ai-chat-widget>` as a tag: its attributes by their HTML names, its
 * attribute-less properties, and its events. `jsx.ts`, `vue.ts` and `svelte.ts` build each
 * framework's element typing from these, and `ai-chat-widget/react` its wrapper's event props.
 *
 * There is deliberately no `open` here: frameworks set a prop as a DOM property when the element
 * has one, and `open` is the element's method. Bind `opened` (the property) instead.
 */
import type { AiChatWidget } from '../widget/ai-chat-widget.js';
import type { AiChatWidgetEventMap } from '../widget/events.js';

export type { AiChatWidgetEventMap };

/** Attributes by their HTML names; each also works before the element is defined (upgraded). */
export interface AiChatWidgetAttributes {
  mode?: AiChatWidget['mode'];
  title?: string;
  placeholder?: string;
  'welcome-message'?: string;
  theme?: AiChatWidget['theme'];
  storage?: AiChatWidget['storage'];
  'base-url'?: string;
  'bot-id'?: string;
  'user-id'?: string;
  stream?: boolean;
  timeout?: number;
  /** **Development only**: a secret API key in the page. */
  'api-key'?: string;
  'token-url'?: string;
  /** Cookies on the `token-url` request: `same-origin` (default) or `include` (a proxy on another origin). */
  'token-credentials'?: AiChatWidget['tokenCredentials'];
  /** BCP 47; picks the built-in strings. */
  lang?: string;
  dir?: 'ltr' | 'rtl' | 'auto';
}

/**
 * Properties that have no attribute (objects, functions) plus `opened`. Frameworks set these as
 * DOM properties, so the element must be defined first (`import 'ai-chat-widget'`).
 */
export type AiChatWidgetProperties = Partial<
  Pick<AiChatWidget, 'opened' | 'token' | 'getToken' | 'strings' | 'starters' | 'highlight'>
>;

/** `on` + the event name (`onai-chat-ready`): React 19 and Svelte 5 listen to that event. */
export type AiChatWidgetEventAttributes = {
  [K in keyof AiChatWidgetEventMap as `on${K}`]?: (event: AiChatWidgetEventMap[K]) => void;
};

/** `ai-chat-message-sent` -> `AiChatMessageSent`. */
export type PascalCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Capitalize<Head>}${PascalCase<Tail>}`
  : Capitalize<S>;

/** `onAiChatReady` …: the React wrapper's and Vue's (`@ai-chat-ready`) handler props. */
export type AiChatWidgetEventProps = {
  [K in keyof AiChatWidgetEventMap as `on${PascalCase<K>}`]?: (event: AiChatWidgetEventMap[K]) => void;
};
