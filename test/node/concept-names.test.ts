/// <reference types="node" />
// One name per concept: each of these names meant two different things in src/ and
// server/src. Now each is declared once, for one concept; a `@deprecated` alias kept for a renamed
// public type does not count (it names the renamed concept, and says where the name went).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(root, dir, f));
}

const files = [...sources('src'), ...sources('server/src')].map((path) => ({
  path: relative(root, path),
  text: readFileSync(path, 'utf8'),
}));

/** Files declaring `name` (interface, class, type or enum), leaving out `@deprecated` aliases. */
function declarationsOf(name: string): string[] {
  const jsdoc = '(/\\*\\*(?:(?!\\*/)[\\s\\S])*\\*/\\s*)?';
  const keyword = '^(?:export )?(?:declare )?(?:abstract )?(?:interface|class|type|enum)';
  const declaration = new RegExp(`${jsdoc}${keyword} ${name}\\b`, 'gm');
  return files.flatMap(({ path, text }) =>
    [...text.matchAll(declaration)].filter((m) => !m[1]?.includes('@deprecated')).map(() => path),
  );
}

describe('one name per concept', () => {
  const expected: Record<string, string> = {
    // the `detail` of `ai-chat-error`; one offending value of a refused request is `ValidationIssue`
    ErrorDetail: 'src/widget/core/events.ts',
    // the service's store of conversations; the widget's browser-kept one is `LocalConversation`
    ConversationService: 'server/src/conversations/service.ts',
    // what a verified token grants; a token endpoint's answer is `TokenResponseData`
    TokenGrant: 'src/proxy/tokens.ts',
    ValidationIssue: 'src/client/envelope-types.ts',
    LocalConversation: 'src/widget/conversation/local-conversation.ts',
  };
  for (const [name, file] of Object.entries(expected)) {
    it(`declares ${name} once, in ${file}`, () => {
      assert.deepEqual(declarationsOf(name), [file]);
    });
  }

  it('names a token endpoint\'s answer TokenResponseData on both ends (the proxy and the widget)', () => {
    assert.deepEqual(declarationsOf('TokenResponseData').sort(), ['src/proxy/mint.ts', 'src/widget/connection/token-source.ts']);
  });
});
