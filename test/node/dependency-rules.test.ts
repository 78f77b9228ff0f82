/// <reference types="node" />
// The import rules of .dependency-cruiser.cjs (`npm run check:deps`), tried on a small tree of
// their own: each rule refuses what it names, and lets the downward imports through.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cruise } from 'dependency-cruiser';

const ruleSet = createRequire(import.meta.url)(join(import.meta.dirname, '..', '..', '.dependency-cruiser.cjs'));
const root = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Writes `files` (path → the paths it imports) under `root` and returns the rules each import broke. */
async function violations(files: Record<string, string[]>): Promise<string[]> {
  const dir = mkdtempSync(join(root, 'case-'));
  for (const [path, imports] of Object.entries(files)) {
    mkdirSync(join(dir, dirname(path)), { recursive: true });
    const lines = imports.map((target, i) => `import * as m${i} from '${target}';\nexport const v${i} = m${i};\n`);
    writeFileSync(join(dir, path), lines.join('') || 'export {};\n');
  }
  process.chdir(dir);
  const result = await cruise(Object.keys(files), { ruleSet, validate: true, ...ruleSet.options }, { extensions: ['.ts'], extensionAlias: { '.js': ['.ts', '.js'] } });
  if (typeof result.output === 'string') throw new Error(result.output);
  return result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
}

describe('dependency rules', () => {
  it('let every floor import the floors below it', async () => {
    assert.deepEqual(
      await violations({
        'server/src/app.ts': ['./chat/routes.ts'],
        'server/src/chat/routes.ts': ['../turns/pipeline.ts', '../config.ts'],
        'server/src/config.ts': ['./llm/index.ts'],
        'server/src/turns/pipeline.ts': ['../bots/service.ts', '../conversations/service.ts'],
        'server/src/bots/service.ts': ['../conversations/service.ts'],
        'server/src/conversations/service.ts': ['../attachments/tables.ts', '../db/schema.ts', '../../../src/client/types.ts'],
        'server/src/attachments/tables.ts': ['../db/schema.ts'],
        'server/src/db/schema.ts': [],
        'server/src/llm/index.ts': ['../http/errors.ts'],
        'server/src/http/errors.ts': [],
        'src/client/types.ts': [],
        'src/widget/element.ts': ['../client/types.js'],
      }),
      [],
    );
  });

  it('refuse an import that points up a floor', async () => {
    assert.deepEqual(
      await violations({
        'server/src/services.ts': [],
        'server/src/config.ts': [],
        'server/src/http/errors.ts': ['../config.ts'],
        'server/src/chat/routes.ts': ['../services.ts'],
        'server/src/conversations/service.ts': ['../bots/service.ts', '../chat/routes.ts'],
        'server/src/bots/service.ts': ['../turns/pipeline.ts'],
        'server/src/turns/pipeline.ts': [],
        'server/src/nlu/engine.ts': ['../knowledge/service.ts'],
        'server/src/knowledge/service.ts': [],
        'src/client/types.ts': ['../widget/element.js'],
        'src/widget/element.ts': [],
      }),
      [
        'answerers-import-down: server/src/bots/service.ts → server/src/turns/pipeline.ts',
        'base-imports-down: server/src/http/errors.ts → server/src/config.ts',
        'client-stands-alone: src/client/types.ts → src/widget/element.ts',
        'domain-imports-down: server/src/conversations/service.ts → server/src/chat/routes.ts',
        'engines-import-down: server/src/nlu/engine.ts → server/src/knowledge/service.ts',
        'routes-import-down: server/src/chat/routes.ts → server/src/services.ts',
        'stores-import-down: server/src/conversations/service.ts → server/src/bots/service.ts',
        // chat/ is named on no domain floor, so it also reads as a flow
        'stores-import-down: server/src/conversations/service.ts → server/src/chat/routes.ts',
      ],
    );
  });

  it('refuse an import circle, also within one floor', async () => {
    const found = await violations({
      'server/src/accounts/service.ts': ['../keys/cache.ts'],
      'server/src/keys/cache.ts': ['../accounts/service.ts'],
    });
    assert.ok(found.length > 0 && found.every((v) => v.startsWith('no-circular:')), found.join('\n'));
  });
});
