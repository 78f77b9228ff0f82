// A tiny React 19 app for test/frameworks/react.test.ts: the `ai-chat-widget/react` wrapper in
// inline mode, and the bare tag typed by `ai-chat-widget/jsx`. Parent state (a counter, a title)
// forces re-renders; the typed events are recorded into React state and rendered as lists, so the
// test reads what React itself received. The service settings come from the query string.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AiChatWidget } from '../../../src/react/index.js';
import type {} from '../../../src/frameworks/jsx.js';

const query = new URLSearchParams(location.search);
const service = {
  apiKey: query.get('apiKey') ?? '',
  baseUrl: query.get('baseUrl') ?? '',
  botId: query.get('botId') ?? '',
};

function App() {
  const [renders, setRenders] = useState(0);
  const [title, setTitle] = useState('Support');
  const [generation, setGeneration] = useState(0);
  const [events, setEvents] = useState<string[]>([]);
  const [replies, setReplies] = useState<string[]>([]);
  const [directReplies, setDirectReplies] = useState<string[]>([]);
  const record = (e: Event) => setEvents((list) => [...list, e.type]);

  // the banner appears before the widget on odd counts; the widget's key keeps its element
  const children = [
    ...(renders % 2 ? [<p key="banner" id="banner">Re-rendered {renders} times</p>] : []),
    <AiChatWidget
      key={`chat-${generation}`}
      id="wrapped"
      mode="inline"
      apiKey={service.apiKey}
      baseUrl={service.baseUrl}
      botId={service.botId}
      title={title}
      starters={[`Starter ${renders}`]}
      strings={{ send: `Send (${renders})` }}
      onAiChatReady={record}
      onAiChatMessageSent={(e) => setEvents((list) => [...list, `${e.type}:${e.detail.text}`])}
      onAiChatMessageReceived={(e) => {
        record(e);
        setReplies((list) => [...list, e.detail.message.content]);
      }}
      onAiChatError={(e) => setEvents((list) => [...list, `${e.type}:${e.detail.code}`])}
    />,
  ];

  return (
    <main>
      <button id="rerender" onClick={() => setRenders((n) => n + 1)}>Re-render ({renders})</button>
      <button id="retitle" onClick={() => setTitle(`Support ${renders}`)}>Change title</button>
      <button id="remount" onClick={() => setGeneration((n) => n + 1)}>Remount</button>
      <output id="renders">{renders}</output>
      <ol id="events">{events.map((e, i) => <li key={i}>{e}</li>)}</ol>
      <ol id="replies">{replies.map((r, i) => <li key={i}>{r}</li>)}</ol>
      {children}
      <ai-chat-widget
        id="direct"
        mode="inline"
        api-key={service.apiKey}
        base-url={service.baseUrl}
        bot-id={service.botId}
        title={`Direct ${renders}`}
        onai-chat-message-received={(e) => setDirectReplies((list) => [...list, e.detail.message.content])}
      />
      <ol id="direct-replies">{directReplies.map((r, i) => <li key={i}>{r}</li>)}</ol>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
