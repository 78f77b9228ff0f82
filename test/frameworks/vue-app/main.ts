// A tiny Vue 3 app for test/frameworks/vue.test.ts: `<ai-chat-widget>` as a plain custom element
// in a render function (no SFC compiler), inline mode. Reactive state (a counter, a title) forces
// re-renders; the typed events are recorded into reactive state and rendered as lists, so the test
// reads what Vue itself received. The service settings come from the query string.
import { createApp, defineComponent, h, ref } from 'vue';
import '../../../src/ai-chat-widget.js';
import type { AiChatMessageReceivedEvent, AiChatMessageSentEvent } from '../../../src/element.js';
import type { AiChatWidgetVueProps } from '../../../src/frameworks/vue.js';

const query = new URLSearchParams(location.search);

const App = defineComponent(() => {
  const renders = ref(0);
  const title = ref('Support');
  const generation = ref(0);
  const events = ref<string[]>([]);
  const replies = ref<string[]>([]);
  const record = (e: Event) => events.value.push(e.type);

  return () => {
    // typed with the `ai-chat-widget/vue` props (Vue passes on* props as listeners)
    const widgetProps: AiChatWidgetVueProps = {
      mode: 'inline',
      title: title.value,
      starters: [`Starter ${renders.value}`],
      strings: { send: `Send (${renders.value})` },
      onAiChatReady: record,
      onAiChatMessageSent: (e: AiChatMessageSentEvent) => events.value.push(`${e.type}:${e.detail.text}`),
      onAiChatMessageReceived: (e: AiChatMessageReceivedEvent) => {
        record(e);
        replies.value.push(e.detail.message.content);
      },
      onAiChatError: (e) => events.value.push(`${e.type}:${e.detail.code}`),
    };
    return h('main', [
      h('button', { id: 'rerender', onClick: () => renders.value++ }, `Re-render (${renders.value})`),
      h('button', { id: 'retitle', onClick: () => (title.value = `Support ${renders.value}`) }, 'Change title'),
      h('button', { id: 'remount', onClick: () => generation.value++ }, 'Remount'),
      h('output', { id: 'renders' }, String(renders.value)),
      h('ol', { id: 'events' }, events.value.map((e) => h('li', e))),
      h('ol', { id: 'replies' }, replies.value.map((r) => h('li', r))),
      renders.value % 2 ? h('p', { id: 'banner', key: 'banner' }, `Re-rendered ${renders.value} times`) : null,
      h('ai-chat-widget', {
        key: `chat-${generation.value}`,
        id: 'wrapped',
        // attributes by their HTML names: they work before and after the element upgrades
        'api-key': query.get('apiKey') ?? '',
        'base-url': query.get('baseUrl') ?? '',
        'bot-id': query.get('botId') ?? '',
        ...widgetProps,
      }),
    ]);
  };
});

createApp(App).mount('#app');
