/**
 * Streamed replies (the `stream` attribute): the typed client's turn streams, chat and bot. An add-on
 * (catalog.ts), loaded by widgets that stream, when they connect; a widget without `stream` never
 * loads the SSE reader. Errors it throws are recognised by name in the widget (client/errors.ts),
 * so the one-`<script>` build's copy of the client in this add-on is no problem.
 */
export { streamChat } from '../../client/resources/chat.js';
export { streamBotMessage } from '../../client/resources/bots.js';
