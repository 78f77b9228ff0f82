// Derives VS Code custom data from dist/custom-elements.json (run by `npm run build` after
// `cem analyze`): dist/vscode.html-custom-data.json (the tag, its attributes and their values) and
// dist/vscode.css-custom-data.json (the --ai-chat-* properties and the ::part() names).
// Format: https://github.com/microsoft/vscode-custom-data (version 1.1).
// `node scripts/vscode-data.mjs [dir]` reads and writes in `dir` instead (the manifest test does).
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const dist = process.argv[2]
  ? pathToFileURL(process.argv[2].replace(/\/?$/, '/'))
  : new URL('../dist/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('custom-elements.json', dist), 'utf8'));
const { name: packageName } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const docsUrl = `https://www.npmjs.com/package/${packageName}#element-reference`;

/** `'a' | 'b'` -> `['a', 'b']`; any other type -> `null` (free text). */
function literalValues(typeText = '') {
  const parts = typeText.split('|').map((p) => p.trim());
  return parts.every((p) => /^'[^']*'$/.test(p)) ? parts.map((p) => p.slice(1, -1)) : null;
}

function htmlAttribute(attribute) {
  const entry = { name: attribute.name, description: attribute.description ?? '' };
  const type = attribute.type?.text;
  if (type === 'boolean') entry.valueSet = 'v'; // VS Code's set for valueless attributes
  const values = literalValues(type);
  if (values) entry.values = values.map((name) => ({ name }));
  return entry;
}

const elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.customElement && d.tagName);
if (!elements.length) throw new Error('custom-elements.json has no custom element: run `cem analyze` first');

const html = {
  version: 1.1,
  tags: elements.map((el) => ({
    name: el.tagName,
    description: [el.summary, ...(el.events ?? []).map((e) => `Event \`${e.name}\`: ${e.description ?? ''}`)]
      .filter(Boolean)
      .join('\n\n'),
    attributes: (el.attributes ?? []).map(htmlAttribute),
    references: [{ name: 'Element reference', url: docsUrl }],
  })),
};

const css = {
  version: 1.1,
  properties: elements.flatMap((el) =>
    (el.cssProperties ?? []).map((p) => ({ name: p.name, description: p.description ?? '' })),
  ),
  pseudoElements: elements.flatMap((el) =>
    (el.cssParts ?? []).map((p) => ({
      name: `::part(${p.name})`,
      description: `<${el.tagName}>: ${p.description ?? ''}`,
    })),
  ),
};

writeFileSync(new URL('vscode.html-custom-data.json', dist), `${JSON.stringify(html, null, 2)}\n`);
writeFileSync(new URL('vscode.css-custom-data.json', dist), `${JSON.stringify(css, null, 2)}\n`);
console.log(
  `vscode custom data: ${html.tags.length} tag, ${html.tags[0].attributes.length} attributes, ` +
    `${css.properties.length} CSS properties, ${css.pseudoElements.length} parts`,
);
