// Type test: `<ai-chat-widget>` in Svelte markup (`ai-chat-widget/svelte`), as svelte-check sees it.
import type {} from '../../src/frameworks/svelte.js';
import type { SvelteHTMLElements } from 'svelte/elements';

type Props = SvelteHTMLElements['ai-chat-widget'];

export const correct: Props = {
  mode: 'inline',
  'base-url': '/v1',
  'token-url': '/proxy/token',
  'token-credentials': 'include',
  theme: 'auto',
  stream: true,
  timeout: 5000,
  opened: false,
  'bot-name': 'Ada',
  'bot-avatar': '/ada.png',
  'no-feedback': true,
  teaser: 'Questions? Ask me',
  'teaser-delay': 3000,
  attachments: true,
  starters: ['Pricing'],
  class: 'chat',
  'onai-chat-message-received': (e) => void e.detail.message.content.trim(),
  'on:ai-chat-error': (e) => void e.detail.retryable,
};

export const wrong: Props[] = [
  // @ts-expect-error mode is a union of literal strings
  { mode: 'sideways' },
  // @ts-expect-error token-credentials is same-origin or include
  { 'token-credentials': 'omit' },
  // @ts-expect-error timeout is a number
  { timeout: '5000' },
  // @ts-expect-error no-feedback is a boolean
  { 'no-feedback': 'yes' },
  // @ts-expect-error the ready event's detail has no `text`
  { 'onai-chat-ready': (e) => void e.detail.text },
  // @ts-expect-error `open` would overwrite the element's open() method; bind `opened`
  { open: true },
];
