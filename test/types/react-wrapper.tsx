// Type test (tsc -p tsconfig.types-test.json): the `ai-chat-widget/react` wrapper's props and its
// typed event props. Lines marked @ts-expect-error must fail to compile, or tsc reports them.
import { useRef, useState } from 'react';
import { AiChatWidget, type AiChatWidgetElement, type AiChatWidgetProps } from '../../src/react/index.js';
import type { AiChatErrorEvent, TranscriptMessage } from '../../src/element.js';

export function Correct() {
  const ref = useRef<AiChatWidgetElement>(null);
  const [replies, setReplies] = useState<TranscriptMessage[]>([]);
  return (
    <AiChatWidget
      ref={ref}
      mode="inline"
      baseUrl="/v1"
      botId="bot_1"
      welcomeMessage="Hi"
      theme="auto"
      storage="session"
      stream
      timeout={5000}
      opened={false}
      starters={['Pricing']}
      strings={{ send: 'Go' }}
      getToken={async ({ reason }) => (reason === 'initial' ? 'a' : 'b')}
      className="chat"
      title="Support"
      onAiChatReady={(e) => void e.detail.messageCount.toFixed()}
      onAiChatOpen={(e) => void e.type}
      onAiChatClose={(e) => void e.type}
      onAiChatMessageSent={(e) => (e.detail.text.length > 100 ? e.preventDefault() : undefined)}
      onAiChatMessageReceived={(e) => setReplies((r) => [...r, e.detail.message])}
      onAiChatError={(e) => void e.detail.code.toUpperCase()}
      onAiChatRateLimit={(e) => void e.detail.retryAt.getTime()}
    >
      <img slot="header" alt="" src="logo.svg" />
      {replies.length}
    </AiChatWidget>
  );
}

export const wrongProps: AiChatWidgetProps[] = [
  // @ts-expect-error mode is a union of literal strings
  { mode: 'sideways' },
  // @ts-expect-error timeout is a number
  { timeout: '5000' },
  // @ts-expect-error `open` is the element's method; the state is `opened`
  { open: true },
  // @ts-expect-error storage takes local, session or none
  { storage: 'cookie' },
  // @ts-expect-error starters is a string array
  { starters: 'Pricing' },
  // @ts-expect-error the handler gets an AiChatMessageReceivedEvent, not an error event
  { onAiChatMessageReceived: (e: AiChatErrorEvent) => void e.detail.retryable },
  // @ts-expect-error detail has no `text` on the received event
  { onAiChatMessageReceived: (e) => void e.detail.text },
  // @ts-expect-error messages is read-only state of the element, not an input
  { messages: 'hello' },
];
