// A minimal Express app that serves a page with the widget and keeps the API key on the server.
//
//   AI_CHAT_API_KEY=… AI_CHAT_PROXY_SECRET=$(openssl rand -base64 48) AI_CHAT_BOT_ID=bot_… \
//   AI_CHAT_UPSTREAM=http://127.0.0.1:8787 node examples/proxy/express.mjs
//
// Needs `npm run build` first (it imports the package by name) and `@hono/node-server`.
import express from 'express';
import { createProxy } from 'ai-chat-widget/proxy';
import { toNodeHandler } from 'ai-chat-widget/proxy/node';

const proxy = createProxy({
  apiKey: process.env.AI_CHAT_API_KEY,
  upstream: process.env.AI_CHAT_UPSTREAM ?? 'http://127.0.0.1:8787',
  secret: process.env.AI_CHAT_PROXY_SECRET,
  botId: process.env.AI_CHAT_BOT_ID,
  // A real app checks its session here; this demo serves anonymous visitors.
  allowAnonymous: true,
});

const app = express();
app.use('/ai', toNodeHandler(proxy)); // before express.json(): the proxy reads the raw body
app.use(express.json());
app.use('/dist', express.static(new URL('../../dist', import.meta.url).pathname));
app.get('/', (_req, res) => {
  res.type('html').send(`<!doctype html>
<title>Widget behind a token proxy</title>
<script type="module" src="/dist/ai-chat-widget.js"></script>
<ai-chat-widget bot-id="${process.env.AI_CHAT_BOT_ID ?? ''}" token-url="/ai/token" base-url="/ai/v1"></ai-chat-widget>`);
});

const port = Number(process.env.PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`http://127.0.0.1:${port}`));
