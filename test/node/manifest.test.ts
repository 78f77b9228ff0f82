/// <reference types="node" />
// The Custom Elements Manifest and the VS Code data are generated from the element's JSDoc. These
// tests run the same generation as `npm run build` (into a temporary folder) and hold it against
// the README's element reference, the events module and the element's own template and styles,
// so neither the JSDoc nor the README can drift from the code.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as events from '../../src/widget/core/events.js';

interface Named {
  name: string;
  description?: string;
  type?: { text: string };
}
interface Declaration extends Named {
  kind: string;
  customElement?: boolean;
  tagName?: string;
  attributes?: (Named & { fieldName?: string })[];
  members?: (Named & { kind: string; privacy?: string; static?: boolean })[];
  events?: Named[];
  slots?: Named[];
  cssParts?: Named[];
  cssProperties?: Named[];
}
interface Manifest {
  schemaVersion: string;
  modules: {
    path: string;
    declarations?: Declaration[];
    exports?: { kind: string; name: string; declaration: { name: string; module: string } }[];
  }[];
}

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
/** The element's templates (all of src/widget, so moving a template to another file keeps it checked). */
const widgetSource = readdirSync(join(root, 'src/widget'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.styles.ts'))
  .map((f) => readFileSync(join(root, 'src/widget', f), 'utf8'))
  .join('\n');

/** The README's text between two headings (exclusive). */
function section(from: string, to: string): string {
  const start = readme.indexOf(from);
  const end = readme.indexOf(to, start + from.length);
  assert.ok(start >= 0 && end > start, `README has a "${from}" section followed by "${to}"`);
  return readme.slice(start + from.length, end);
}

/** The cells of a markdown table's body rows. */
function tableRows(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1) // header row
    .map((line) => line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim()));
}

/** The first `code` span of a table cell, or null for "—". */
function code(cell: string): string | null {
  return /`([^`]+)`/.exec(cell)?.[1] ?? null;
}

const names = (items: Named[] | undefined) => (items ?? []).map((i) => i.name).sort();
const sorted = (items: Iterable<string>) => [...new Set(items)].sort();

let dir: string;
let manifest: Manifest;
let element: Declaration;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ai-chat-cem-'));
  // cem joins --outdir to the working directory, so it takes a relative path
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/@custom-elements-manifest/analyzer/cem.js'), 'analyze',
      '--config', 'custom-elements-manifest.config.mjs', '--outdir', relative(root, dir), '--quiet'],
    { cwd: root, stdio: 'pipe' },
  );
  execFileSync(process.execPath, [join(root, 'scripts/vscode-data.mjs'), dir], { cwd: root, stdio: 'pipe' });
  manifest = JSON.parse(readFileSync(join(dir, 'custom-elements.json'), 'utf8')) as Manifest;
  const found = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.customElement);
  assert.ok(found, 'the manifest declares a custom element');
  element = found;
});

after(() => rmSync(dir, { recursive: true, force: true }));

describe('custom-elements.json', () => {
  it('defines <ai-chat-widget> in the registering entry, pointing at the shipped files', () => {
    assert.equal(manifest.schemaVersion, '1.0.0');
    assert.equal(element.tagName, 'ai-chat-widget');
    assert.equal(element.name, 'AiChatWidget');
    const definition = manifest.modules
      .flatMap((m) => (m.exports ?? []).map((e) => ({ ...e, path: m.path })))
      .find((e) => e.kind === 'custom-element-definition');
    assert.deepEqual(definition, {
      kind: 'custom-element-definition',
      name: 'ai-chat-widget',
      declaration: { name: 'AiChatWidget', module: 'dist/element.js' },
      path: 'dist/ai-chat-widget.js',
    });
    // every module path is a file the package ships
    assert.deepEqual(sorted(manifest.modules.map((m) => m.path)), ['dist/ai-chat-widget.js', 'dist/element.js']);
    // and so is every module a reference names (an export, a superclass: the events' is the DOM's)
    const referenced = [...JSON.stringify(manifest).matchAll(/"module":"([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(sorted(referenced), ['dist/element.js']);
    // no temporary path leaked into package.json (the analyser can write it; the config forbids that)
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { customElements: string };
    assert.equal(pkg.customElements, 'dist/custom-elements.json');
  });

  it("names every attribute after its property in kebab case, the rule the framework typings derive", () => {
    // src/frameworks/props.ts types JSX, Vue and Svelte from the property table with this rule, so
    // an attribute named otherwise (Lit's default lowercases `fooBar` to `foobar`) would be mistyped.
    const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const exceptions: Record<string, string> = { opened: 'open' }; // left out of the typings' attributes
    const inherited = ['lang', 'dir']; // HTMLElement's own
    for (const attribute of element.attributes ?? []) {
      if (inherited.includes(attribute.name)) continue;
      assert.ok(attribute.fieldName, `attribute ${attribute.name} has a property`);
      assert.equal(attribute.name, exceptions[attribute.fieldName] ?? kebab(attribute.fieldName));
    }
  });

  it('lists exactly the attributes and properties of the README table, with their types', () => {
    const rows = tableRows(section('### Attributes and properties', '### Methods'));
    assert.ok(rows.length >= 20, `README table rows: ${rows.length}`);
    const readmeAttributes = rows.map((r) => code(r[0])).filter((a): a is string => a !== null);
    assert.deepEqual(names(element.attributes), sorted(readmeAttributes));

    const publicFields = (element.members ?? []).filter((m) => m.kind === 'field' && !m.privacy && !m.static);
    const readmeProperties = rows.map((r) => code(r[1])).filter((p): p is string => p !== null);
    // `lang` and `dir` are HTMLElement's own properties; the README documents what they do here
    const inherited = ['lang', 'dir'];
    assert.deepEqual(
      sorted(publicFields.map((m) => m.name)),
      sorted(readmeProperties.filter((p) => !inherited.includes(p))),
    );

    // attribute -> property as the README states (e.g. `open` -> `opened`)
    for (const row of rows) {
      const [attribute, property] = [code(row[0]), code(row[1])];
      if (!attribute || !property) continue;
      const entry = element.attributes!.find((a) => a.name === attribute)!;
      if (!inherited.includes(attribute)) {
        assert.equal(entry.fieldName, property, `attribute ${attribute} sets property ${property}`);
      }
      // every literal value the README lists is in the manifest's type (editors offer them)
      for (const value of row[2].matchAll(/`([a-z]+)`/g)) {
        assert.match(entry.type?.text ?? '', new RegExp(`'${value[1]}'`), `${attribute} accepts ${value[1]}`);
      }
    }
    for (const attribute of element.attributes!) assert.ok(attribute.description, `${attribute.name} is described`);
  });

  it('lists exactly the README methods', () => {
    const rows = tableRows(section('### Methods', '### Events'));
    const readmeMethods = rows.flatMap((r) => [...r[0].matchAll(/`(\w+)\(/g)].map((m) => m[1]));
    const methods = (element.members ?? []).filter((m) => m.kind === 'method' && !m.privacy && !m.static);
    assert.deepEqual(sorted(methods.map((m) => m.name)), sorted(readmeMethods));
  });

  it('lists every event with its Event subclass: the @fires JSDoc and the README as events.ts lists them', () => {
    // events.ts's `aiChatEvents` is the one list; the event map, the framework typings and the
    // React wrapper's props are derived from it, and the docs must say the same, in its order
    const listed = events.aiChatEvents.map((E) => [E.eventName, E.name]);
    const rows = tableRows(section('### Events', '### Theming'));
    assert.deepEqual(rows.map((r) => [code(r[0]), code(r[1])]), listed, 'README events table');
    assert.deepEqual((element.events ?? []).map((e) => [e.name, e.type?.text]), listed, '@fires JSDoc');
    // every exported Event subclass is in the list, and dispatches the name the list gives it
    const classes = Object.entries(events).filter(([name]) => /^AiChat\w+Event$/.test(name));
    assert.deepEqual(sorted(classes.map(([name]) => name)), sorted(events.aiChatEvents.map((E) => E.name)));
    for (const EventClass of events.aiChatEvents) {
      const instance = new (EventClass as new (detail?: unknown) => Event)({});
      assert.equal(instance.type, EventClass.eventName, `${EventClass.name} dispatches ${EventClass.eventName}`);
      assert.ok(instance.bubbles && instance.composed, `${EventClass.name} bubbles and is composed`);
    }
  });

  it('lists exactly the README parts, and every part the template renders', () => {
    const paragraph = /`::part` names are a stable contract:([\s\S]*?)\n\n/.exec(readme)?.[1] ?? '';
    const readmeParts = [...paragraph.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]);
    assert.ok(readmeParts.length >= 15);
    assert.deepEqual(names(element.cssParts), sorted(readmeParts));

    const rendered = [...widgetSource.matchAll(/\bpart="([^"]+)"/g)]
      .flatMap((m) => m[1].split(/\s+/))
      .flatMap((token) => (token.includes('${') ? ['message-user', 'message-assistant', 'message-operator'] : [token]));
    assert.deepEqual(sorted(rendered), names(element.cssParts));
  });

  it('lists exactly the README CSS properties, and every one the styles read', () => {
    const readmeProperties = [...section('### Theming', '`::part` names').matchAll(/`(--ai-chat-[a-z-]+)`/g)].map(
      (m) => m[1],
    );
    assert.deepEqual(names(element.cssProperties), sorted(readmeProperties));

    const styleFiles = readdirSync(join(root, 'src/widget'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.styles.ts'));
    const used = styleFiles.flatMap((f) =>
      [...readFileSync(join(root, 'src/widget', f), 'utf8').matchAll(/var\((--ai-chat-[a-z-]+)/g)].map((m) => m[1]),
    );
    for (const property of used) assert.ok(readmeProperties.includes(property), `${property} is documented`);
  });

  it('lists exactly the README slots, and every slot the template renders', () => {
    const slotsLine = /^Slots:(.*)$/m.exec(readme)?.[1] ?? '';
    const readmeSlots = [...slotsLine.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]);
    assert.deepEqual(names(element.slots), sorted(readmeSlots));
    const rendered = [...widgetSource.matchAll(/<slot name="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(sorted(rendered), names(element.slots));
  });

  it('keeps private members out', () => {
    for (const member of element.members ?? []) assert.ok(!member.privacy || member.privacy === 'public', member.name);
  });
});

describe('VS Code custom data', () => {
  it('describes the tag with every attribute and its values', () => {
    const html = JSON.parse(readFileSync(join(dir, 'vscode.html-custom-data.json'), 'utf8')) as {
      version: number;
      tags: { name: string; attributes: { name: string; values?: { name: string }[]; valueSet?: string }[] }[];
    };
    assert.equal(html.version, 1.1);
    const [tag] = html.tags;
    assert.equal(tag.name, 'ai-chat-widget');
    assert.deepEqual(sorted(tag.attributes.map((a) => a.name)), names(element.attributes));
    const values = (name: string) => tag.attributes.find((a) => a.name === name)?.values?.map((v) => v.name);
    assert.deepEqual(values('mode'), ['launcher', 'inline', 'fullpage']);
    assert.deepEqual(values('theme'), ['light', 'dark', 'auto']);
    assert.deepEqual(values('storage'), ['local', 'session', 'none']);
    assert.equal(tag.attributes.find((a) => a.name === 'open')?.valueSet, 'v');
  });

  it('describes every CSS property and every ::part()', () => {
    const css = JSON.parse(readFileSync(join(dir, 'vscode.css-custom-data.json'), 'utf8')) as {
      properties: Named[];
      pseudoElements: Named[];
    };
    assert.deepEqual(names(css.properties), names(element.cssProperties));
    assert.deepEqual(
      names(css.pseudoElements),
      sorted((element.cssParts ?? []).map((p) => `::part(${p.name})`)),
    );
  });
});
