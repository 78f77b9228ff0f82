// The startup banner of `npm start`: each value starts in the same column, the longest label too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bannerRow } from '../src/banner.ts';

describe('startup banner', () => {
  it('lines every value up, "Dashboard:" included, with a space after each label', () => {
    const rows = ['Demo', 'Dashboard', 'Demo bot', 'API key', ''].map((label) => bannerRow(label, 'VALUE'));
    const columns = rows.map((row) => row.indexOf('VALUE'));
    assert.deepEqual(new Set(columns).size, 1, rows.join('\n'));
    for (const row of rows) assert.match(row, / VALUE$/);
  });

  it('main.ts prints its rows through it', async () => {
    const { readFile } = await import('node:fs/promises');
    const main = await readFile(new URL('../src/main.ts', import.meta.url), 'utf8');
    assert.doesNotMatch(main, /`  [A-Z][\w ]*: /, 'no row written out by hand');
  });
});
