// Type test (tsc -p tsconfig.types-test.json): the DOM's event map knows every `<ai-chat-widget>`
// event by name with its `Event` subclass (derived from `aiChatEvents`), so plain
// `addEventListener` calls are typed without the wrapper.
import type { AiChatWidget, AiChatWidgetEventMap, TranscriptMessage } from '../../src/element.js';

declare const el: AiChatWidget;

el.addEventListener('ai-chat-error', (e) => void e.detail.code.toUpperCase());
el.addEventListener('ai-chat-message-received', (e) => {
  const message: TranscriptMessage = e.detail.message;
  return message;
});
el.addEventListener('ai-chat-rate-limit', (e) => void e.detail.retryAt.getTime());
document.addEventListener('ai-chat-ready', (e) => void e.detail.messageCount.toFixed());
el.addEventListener('ai-chat-message-sent', (e) => e.preventDefault());

// @ts-expect-error the ready event's detail has no `message`
el.addEventListener('ai-chat-ready', (e) => e.detail.message);

export const names: (keyof AiChatWidgetEventMap)[] = [
  'ai-chat-ready',
  'ai-chat-open',
  'ai-chat-close',
  'ai-chat-message-sent',
  'ai-chat-message-received',
  'ai-chat-error',
  'ai-chat-rate-limit',
  // @ts-expect-error not an event of the widget
  'ai-chat-typing',
];
