// Type test: `<ai-chat-widget>` as a typed global component in Vue (`ai-chat-widget/vue`).
import type {} from '../../src/frameworks/vue.js';
import type { GlobalComponents } from 'vue';

type Props = InstanceType<GlobalComponents['ai-chat-widget']>['$props'];

export const correct: Props = {
  mode: 'inline',
  baseUrl: '/v1',
  botId: 'bot_1',
  apiKey: 'dev-key',
  welcomeMessage: 'Hi',
  storage: 'session',
  stream: true,
  timeout: 5000,
  opened: true,
  botName: 'Ada',
  botAvatar: '/ada.png',
  noFeedback: true,
  teaser: 'Questions? Ask me',
  teaserDelay: 3000,
  attachments: true,
  starters: ['Pricing'],
  dir: 'rtl',
  onAiChatMessageReceived: (e) => void e.detail.message.content.trim(),
  onAiChatRateLimit: (e) => void e.detail.retryAt.getTime(),
};

export const wrong: Props[] = [
  // @ts-expect-error mode is a union of literal strings
  { mode: 'sideways' },
  // @ts-expect-error stream is a boolean
  { stream: 'yes' },
  // @ts-expect-error teaserDelay is a number
  { teaserDelay: '3000' },
  // @ts-expect-error the error event's detail has no `message` object
  { onAiChatError: (e) => void e.detail.message.content },
  // @ts-expect-error an unknown prop
  { botID: 'bot_1' },
];
