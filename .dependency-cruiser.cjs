/**
 * The import rules of server/src and src/ (docs/architecture.md draws them), checked by
 * `npm run check:deps` (scripts/check-dependencies.mjs), which `npm test` runs right after the
 * type check. Two kinds of rule: no import circle anywhere, and imports only point down the floors.
 *
 * The service's floors, bottom to top:
 *   base     ids, logger, banner, db/, http/ (less the auth gate), jobs/, llm/, text/
 *   domain   the resource folders' services, stores and schemas (conversations/, turns/, bots/…)
 *   config   config.ts, which gathers every folder's options
 *   routes   <folder>/routes.ts, <folder>/<name>-routes.ts, <folder>/openapi.ts, chat/, openapi/,
 *            the auth gate, the response of a turn (turns/respond.ts), the bot message handler,
 *            channel webhooks, the dashboard's routes and page
 *   root     services.ts (builds the graph), app.ts, index.ts, main.ts, seed.ts, static.ts,
 *            demo-proxy.ts
 * The domain has floors of its own, bottom to top:
 *   engines  nlu/, embeddings/, rate-limit/, sessions/, attachments/
 *   stores   conversations/, analytics/, feedback/, knowledge/, accounts/, keys/, users/, dashboard/
 *   answerers bots/, agents/
 *   flows    turns/, handoff/, channels/, and any folder not named above
 */
const ROUTES =
  '^server/src/(' +
  [
    '.+/routes\\.ts',
    '.+/[\\w-]+-routes\\.ts',
    '.+/openapi\\.ts',
    'chat/',
    'openapi/',
    'http/auth\\.ts',
    'turns/respond\\.ts',
    'bots/messages\\.ts',
    'channels/webhooks\\.ts',
    'dashboard/(routes|page)\\.ts',
  ].join('|') +
  ')';
const ROOT = '^server/src/(services|app|index|main|seed|static|demo-proxy)\\.ts$';
const CONFIG = '^server/src/config\\.ts$';
const BASE = '^server/src/((ids|logger|banner)\\.ts$|(db|http|jobs|llm|text)/)';
/** The domain's floors, bottom to top; a folder named nowhere (nor in the base) is a flow. */
const FLOORS = {
  engines: ['nlu', 'embeddings', 'rate-limit', 'sessions', 'attachments'],
  stores: ['conversations', 'analytics', 'feedback', 'knowledge', 'accounts', 'keys', 'users', 'dashboard'],
  answerers: ['bots', 'agents'],
};
const named = [...Object.values(FLOORS).flat(), 'db', 'http', 'jobs', 'llm', 'text'];
const folders = (names) => `^server/src/(${names.join('|')})/`;
const FLOWS = `^server/src/(?!(${named.join('|')})/)[\\w-]+/`;
/** The folders above a domain floor: the floors after it, then the flows. */
const domainAbove = (floor) => {
  const floors = Object.keys(FLOORS);
  const higher = floors.slice(floors.indexOf(floor) + 1).flatMap((f) => FLOORS[f]);
  return higher.length ? `${folders(higher)}|${FLOWS}` : FLOWS;
};

/** `from` may not import anything matching one of `above`. */
function below(name, comment, from, above, fromNot) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: from, ...(fromNot && { pathNot: fromNot }) },
    to: { path: above },
  };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle ties its modules into one: move what both need below both.',
      severity: 'error',
      from: { path: '^(server/src|src)/' },
      to: { circular: true },
    },
    below('base-imports-down', 'The base (ids, logger, db, http, jobs, llm, text) serves every floor and imports none above it.', BASE, [ROUTES, ROOT, CONFIG, '^server/src/(?!(ids|logger|banner)\\.ts$|(db|http|jobs|llm|text)/)'].join('|'), '^server/src/http/auth\\.ts$'),
    below('domain-imports-down', 'A service receives what it uses (small interfaces); it never imports routes, config.ts or the root.', '^server/src/', [ROUTES, ROOT, CONFIG].join('|'), [ROUTES, ROOT, CONFIG, BASE].join('|')),
    below('engines-import-down', 'The domain\'s engines (nlu, embeddings, attachments…) import no store, answerer or flow.', folders(FLOORS.engines), domainAbove('engines'), ROUTES),
    below('stores-import-down', 'Stores (conversations, analytics, knowledge, accounts…) import no answerer or flow.', folders(FLOORS.stores), domainAbove('stores'), ROUTES),
    below('answerers-import-down', 'Bots and agents import no flow (turns, handoff, channels).', folders(FLOORS.answerers), domainAbove('answerers'), ROUTES),
    below('config-imports-down', 'config.ts gathers the folders\' options; routes and the root read it.', CONFIG, [ROUTES, ROOT].join('|')),
    below('routes-import-down', 'Routes receive their services from the root (app.ts); they never import it.', ROUTES, ROOT),
    below('client-stands-alone', 'The typed client (and the wire types in it) imports nothing else of the repository.', '^src/client/', '^(src/(?!client/)|server/)'),
    below('proxy-uses-client-only', 'The token proxy builds on the client\'s types only.', '^src/proxy/', '^(src/(?!client/|proxy/)|server/)'),
    below('widget-uses-client-only', 'The widget builds on the client; pages and frameworks build on the widget.', '^src/widget/', '^(src/(?!client/|widget/)|server/)'),
    below('browser-code-stays-out-of-the-service', 'Nothing in src/ imports the service.', '^src/', '^server/'),
    below('service-uses-shared-contracts-only', 'The service shares the wire contracts of src/ (client types, the proxy, the dashboard API types), nothing browser-side.', '^server/src/', '^src/(?!client/|proxy/|dashboard/types\\.ts$)'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
  },
};
