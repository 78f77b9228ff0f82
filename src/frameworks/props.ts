/**
 * Framework-neutral typings of `<ai-chat-widget>` as a tag: its attributes by their HTML names, its
 * attribute-less properties, and its events. `jsx.ts`, `vue.ts` and `svelte.ts` build each
 * framework's element typing from these, and `ai-chat-widget/react` its wrapper's event props.
 *
 * There is deliberately no `open` here: frameworks set a prop as a DOM property when the element
 * has one, and `open` is the element's method. Bind `opened` (the property) instead.
 */
import type { AiChatWidget } from '../widget/core/ai-chat-widget.js';
import type { AiChatWidgetEventMap } from '../widget/core/events.js';

export type { AiChatWidgetEventMap };

/** The element's one table of reactive properties (`static properties`), read here at the type level. */
type PropertyTable = typeof AiChatWidget.properties;
/** Its public properties: private state (`draft`…) is not a key of the class type. */
type PublicProperty = keyof PropertyTable & keyof AiChatWidget;
/** `welcomeMessage` -> `welcome-message`. */
type KebabCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `-${Lowercase<Head>}`}${KebabCase<Tail>}`
  : S;
/**
 * The HTML attribute of property `K`: none for `attribute: false`, else the property's name in
 * kebab case, which is the table's rule for every attribute (test/node/manifest.test.ts holds the
 * generated manifest to it; `opened`'s `open` is left out below).
 */
type AttributeOf<K extends PublicProperty> = PropertyTable[K] extends { attribute: boolean } ? never : KebabCase<K>;
/** Properties set through an attribute. Not `opened`: its attribute `open` names the element's method (see above). */
export type AiChatWidgetAttributeProperty = Exclude<
  { [K in PublicProperty]: [AttributeOf<K>] extends [never] ? never : K }[PublicProperty],
  'opened'
>;
/** Properties with no attribute (objects, functions), and `opened`. */
type PropertyOnly = { [K in PublicProperty]: [AttributeOf<K>] extends [never] ? K : never }[PublicProperty] | 'opened';

/**
 * Attributes by their HTML names, derived from the property table (so a new attribute is typed for
 * JSX, Vue and Svelte the moment it is declared); each also works before the element is defined
 * (upgraded). Mapped over the class, so editors show each property's documentation.
 */
export type AiChatWidgetAttributes = {
  [K in keyof AiChatWidget as K extends AiChatWidgetAttributeProperty ? AttributeOf<K> : never]?: AiChatWidget[K];
} & {
  /** BCP 47; picks the built-in strings. */
  lang?: string;
  dir?: 'ltr' | 'rtl' | 'auto';
};

/**
 * Properties that have no attribute (objects, functions) plus `opened`. Frameworks set these as
 * DOM properties, so the element must be defined first (`import 'ai-chat-widget'`).
 */
export type AiChatWidgetProperties = Partial<Pick<AiChatWidget, PropertyOnly>>;

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
