/**
 * First-start demo content for the development account: a trained bot about ai-chat-widget itself
 * (so the demo page answers real questions offline) and short knowledge entries it can cite.
 */
import type { CreateBotRequest, CreateKnowledgeRequest, HandoffSettingsInput } from '../../src/client/types.ts';
import type { Deps } from './services.ts';

export const DEMO_BOT: CreateBotRequest = {
  name: 'Widget guide',
  description: 'Answers questions about ai-chat-widget: installing, theming, security and limits.',
  language: 'en',
  quick_replies: ['How do I install it?', 'Can I change the colours?', 'Is it free?', 'Talk to a human'],
  channels: [{ type: 'website', allowed_origins: [] }],
  // The demo entries below are all tagged `docs`: anything else the account adds stays out of the
  // public demo's answers.
  knowledge: { tags: ['docs'] },
  // Visitors may attach screenshots, PDFs and text files (the demo page shows the attach button).
  attachments: { enabled: true },
  training: {
    intents: [
      {
        name: 'greeting',
        examples: ['hello', 'hi', 'hey there', 'good morning', 'hi bot', 'hello, anyone there?'],
        responses: ['Hello! I can help you install, theme and secure the chat widget. What would you like to know?'],
        suggestions: ['How do I install it?', 'Can I change the colours?'],
      },
      {
        name: 'goodbye',
        examples: ['bye', 'goodbye', 'see you later', "that's all", 'I am done'],
        responses: ['Goodbye! Come back any time.'],
      },
      {
        name: 'thanks',
        examples: ['thanks', 'thank you', 'great, thanks', 'cheers', 'thanks a lot'],
        responses: ['You are welcome!'],
      },
      {
        name: 'pricing',
        examples: ['how much does it cost', 'is it free', 'what is the price', 'pricing', 'do I need a paid plan', 'license'],
        responses: ['The widget is free and open source (MIT). You only pay for the model provider you choose, if any.'],
      },
      {
        name: 'install',
        examples: [
          'how do I install it',
          'install the widget',
          'how to add it to my site',
          'install with {framework}',
          'how do I use it in {framework}',
          'setup for {framework}',
          'npm package name',
        ],
        responses: [
          'It is not on npm yet: in a checkout, `npm run build && npm pack`, then `npm install` the .tgz it writes. Import it once, then add `<ai-chat-widget>` to your {framework} template.',
          // asked without a framework: an answer that needs none, rather than a question back
          'It is not on npm yet: in a checkout, `npm run build && npm pack`, then `npm install` the .tgz it writes. Import it once, then add `<ai-chat-widget>` to your page (or load dist/ai-chat-widget.iife.js with a script tag).',
        ],
        suggestions: ['Can I change the colours?', 'How do I keep my API key secret?'],
      },
      {
        name: 'theming',
        examples: ['can I change the colours', 'how do I theme it', 'dark mode', 'custom css', 'change the font', 'match my brand colors'],
        responses: ['Yes: set CSS custom properties such as --ai-chat-accent on the element, and theme="dark" or theme="auto" for dark mode.'],
      },
      {
        name: 'security',
        examples: ['how do I keep my API key secret', 'is my api key exposed', 'security', 'token proxy', 'can users see my key'],
        responses: ['Never put the API key in the page: run the token proxy, which hands the widget short-lived tokens for one bot.'],
      },
      {
        name: 'human_handoff',
        examples: ['talk to a human', 'I want a real person', 'contact support', 'speak to an agent', 'customer service'],
        // the bot's handoff settings (below) hand these conversations to a person in the dashboard inbox
        responses: ['Let me find a person for you. If nobody is online, you can leave your email for a reply.'],
      },
    ],
    entities: [
      {
        name: 'framework',
        type: 'list',
        values: [
          { value: 'React', synonyms: ['react', 'reactjs', 'next.js', 'nextjs'] },
          { value: 'Vue', synonyms: ['vue', 'vuejs', 'nuxt'] },
          { value: 'Svelte', synonyms: ['svelte', 'sveltekit'] },
          { value: 'Angular', synonyms: ['angular'] },
        ],
      },
    ],
    fallback: {
      threshold: 0.65,
      responses: ["I'm not sure about that one. Try one of the suggestions, or rephrase your question."],
    },
  },
};

export const DEMO_HANDOFF: HandoffSettingsInput = { enabled: true, intents: ['human_handoff'], after_fallbacks: 3, hours: null };

export const DEMO_KNOWLEDGE: CreateKnowledgeRequest[] = [
  {
    title: 'Installing ai-chat-widget',
    content:
      'The package is not on the npm registry yet: build it from a checkout of the repository (npm run build, then npm pack) and install the .tgz that writes, then import it once in your app. ' +
      'Then place the <ai-chat-widget> element in your page with a bot id and an endpoint. ' +
      'It is a standard custom element, so it works in React, Vue, Svelte, Angular or plain HTML.',
    tags: ['docs', 'install'],
  },
  {
    title: 'Theming and styling',
    content:
      'The widget is styled with CSS custom properties such as --ai-chat-accent, --ai-chat-radius and --ai-chat-width. ' +
      'The theme attribute is light, dark or auto; auto follows prefers-color-scheme. Inner parts can be styled with ::part().',
    tags: ['docs', 'theming'],
  },
  {
    title: 'Proxy tokens',
    content:
      'Keep your API key on the server. The token proxy signs short-lived tokens (10 minutes by default, at most 15) for one bot ' +
      'and one origin; give the widget a token-url and it fetches and refreshes them itself.',
    tags: ['docs', 'security'],
  },
  {
    title: 'Rate limits',
    content:
      'Requests are rate limited per account. Every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset; ' +
      'a 429 response also sends Retry-After, and the client retries after that delay.',
    tags: ['docs', 'api'],
  },
  {
    title: 'Accessibility',
    content:
      'The widget is keyboard operable: Escape closes the launcher panel and focus returns to the launcher. ' +
      'New replies are announced through a live region, and animations respect prefers-reduced-motion.',
    tags: ['docs', 'accessibility'],
  },
  {
    title: 'Privacy',
    content:
      'Conversations are stored in your own service database and are never sent to third parties unless you configure an LLM provider. ' +
      'In the browser, the storage attribute chooses where the transcript is kept: local, session or none.',
    tags: ['docs', 'privacy'],
  },
];

export async function seedDemoContent(deps: Deps, accountId: string): Promise<void> {
  const bot = await deps.bots.create(accountId, DEMO_BOT);
  // Human handoff on: asking for a person (or three fallbacks in a row) reaches the dashboard inbox.
  await deps.handoff.settings.put(accountId, bot.id, DEMO_HANDOFF);
  for (const entry of DEMO_KNOWLEDGE) await deps.knowledge.create(accountId, entry);
  deps.logger.info('seeded demo content', { bot_id: bot.id, knowledge_entries: DEMO_KNOWLEDGE.length });
}
