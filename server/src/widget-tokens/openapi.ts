/** The one-snippet install's token route in the OpenAPI document (openapi/document.ts spreads it into its paths). */
import { operation } from '../openapi/operation.ts';

export function widgetTokenPaths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/widget/tokens': {
      post: operation({
        operationId: 'createWidgetToken',
        tag: 'Chat',
        summary: 'A visitor token for a web page (the one-snippet install)',
        description: [
          'Called by the widget on a page whose origin the bot lists in its website channel (docs/install.md): no API key.',
          'The token (10 minutes) lets that visitor chat with that bot, from that origin only, on the routes a widget uses — its messages, history,',
          'events, uploads and feedback — and nothing else (403 `permission_denied`); its calls are charged to the visitor and the client address,',
          'never to the account\'s API keys. An origin the bot does not list (or none) answers 403 `origin_not_allowed`, naming the origin and where to list it.',
        ].join(' '),
        isPublic: true,
        body: 'WidgetTokenRequest',
        success: [{ status: 200, data: 'WidgetToken', description: 'The token, when it expires, the visitor and where to send the calls.' }],
        errors: ['Forbidden'],
      }),
    },
  };
}
