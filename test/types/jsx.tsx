// Type test: `<ai-chat-widget>` used directly in React 19 JSX through `ai-chat-widget/jsx`.
import type {} from '../../src/frameworks/jsx.js';
import { useRef } from 'react';
import type { AiChatWidget } from '../../src/element.js';

export function Correct({ onReply }: { onReply: (text: string) => void }) {
  const ref = useRef<AiChatWidget>(null);
  return (
    <ai-chat-widget
      ref={ref}
      mode="inline"
      base-url="/v1"
      bot-id="bot_1"
      api-key="dev-key"
      welcome-message="Hi"
      theme="dark"
      storage="none"
      stream
      timeout={5000}
      dir="rtl"
      lang="de"
      bot-name="Ada"
      bot-avatar="/ada.png"
      no-feedback
      teaser="Questions? Ask me"
      teaser-delay={3000}
      attachments
      opened
      starters={['Pricing']}
      strings={{ send: 'Go' }}
      className="chat"
      onai-chat-message-received={(e) => onReply(e.detail.message.content)}
      onai-chat-error={(e) => void e.detail.status}
      onai-chat-message-sent={(e) => e.preventDefault()}
    >
      <span slot="header">Support</span>
    </ai-chat-widget>
  );
}

export const wrong = [
  // @ts-expect-error mode is a union of literal strings
  <ai-chat-widget mode="sideways" />,
  // @ts-expect-error theme takes light, dark or auto
  <ai-chat-widget theme="blue" />,
  // @ts-expect-error timeout is a number
  <ai-chat-widget timeout="5000" />,
  // @ts-expect-error `open` would overwrite the element's open() method; bind `opened`
  <ai-chat-widget open />,
  // @ts-expect-error the handler gets an AiChatErrorEvent: its detail has no `message` object
  <ai-chat-widget onai-chat-error={(e) => void e.detail.message.content} />,
  // @ts-expect-error an unknown attribute
  <ai-chat-widget botid="bot_1" />,
  // @ts-expect-error teaser-delay is a number of milliseconds
  <ai-chat-widget teaser-delay="3000" />,
  // @ts-expect-error the property's name is not an attribute
  <ai-chat-widget teaserDelay={3000} />,
];
