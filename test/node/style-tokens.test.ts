/// <reference types="node" />
// The styles' custom properties, checked as Material Web checks its tokens. The widget has two
// tiers: public `--ai-chat-*` properties, read once on :host into private `--_*` tokens, and rules
// that read only `--_*`. A private token read but never defined silently falls back (or breaks the
// declaration); a public property documented but never read is a promise the styles do not keep.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = join(import.meta.dirname, '..', '..');
const widgetDir = join(root, 'src/widget');
const read = (file: string) => readFileSync(join(widgetDir, file), 'utf8');
const widgetFiles = readdirSync(widgetDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
const styles = widgetFiles
  .filter((f) => f.endsWith('.styles.ts'))
  .map(read)
  .join('\n')
  .replace(/\/\*[\s\S]*?\*\//g, ''); // comments name tokens without reading them
const code = widgetFiles.filter((f) => !f.endsWith('.styles.ts')).map(read).join('\n');

const all = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]);
const set = (items: string[]) => [...new Set(items)].sort();

/** `--_x: …` in the styles, and `--_x` set from code on the host (`InstanceStyle.set('--_x', …)`). */
const definedTokens = set([...all(styles, /(--_[a-z0-9-]+)\s*:/g), ...all(code, /\.set\('(--_[a-z0-9-]+)'/g)]);
const readTokens = set(all(styles, /var\(\s*(--_[a-z0-9-]+)/g));
const publicRead = set(all(styles, /var\(\s*(--ai-chat-[a-z0-9-]+)/g));

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const theming = readme.slice(readme.indexOf('### Theming'), readme.indexOf('`::part` names'));
const documented = set(all(theming, /`(--ai-chat-[a-z0-9-]+)`/g));
const jsdoc = set(all(read('core/widget-properties.ts'), /@cssprop\s+(--ai-chat-[a-z0-9-]+)/g));

describe('style tokens', () => {
  it('finds the tokens at all (the patterns match the styles)', () => {
    assert.ok(definedTokens.length >= 20, `private tokens: ${definedTokens.length}`);
    assert.ok(publicRead.length >= 20, `public properties: ${publicRead.length}`);
  });

  it('defines every --_* token the styles read', () => {
    assert.deepEqual(readTokens.filter((t) => !definedTokens.includes(t)), []);
  });

  it('reads every --_* token it defines', () => {
    assert.deepEqual(definedTokens.filter((t) => !readTokens.includes(t)), []);
  });

  it('reads each --ai-chat-* property only into a --_* token (the two tiers)', () => {
    for (const property of publicRead) {
      const reads = all(styles, new RegExp(`([^\\s;{]*)\\s*:?\\s*var\\(\\s*${property}\\b`, 'g'));
      for (const target of reads) assert.match(target, /^--_[a-z0-9-]+:?$/, `${property} is read into ${target}`);
    }
  });

  it('documents every --ai-chat-* property it reads, in the README and as @cssprop, and reads every one documented', () => {
    assert.deepEqual(documented, publicRead, 'README theming table = properties the styles read');
    assert.deepEqual(jsdoc, publicRead, '@cssprop JSDoc (custom-elements.json) = properties the styles read');
  });
});
