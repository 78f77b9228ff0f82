// `cem analyze` (run by `npm run build`): writes dist/custom-elements.json from the element's JSDoc
// (@fires, @attr, @slot, @csspart, @cssprop) and its Lit decorators. Only the registering entry,
// the element and its events are analysed, so internal helpers never appear in the manifest.
// scripts/vscode-data.mjs then derives the VS Code custom data from it.

/**
 * Where each analysed source file ships. The element and its events are bundled into
 * `dist/element.js` (`ai-chat-widget/element`); `dist/ai-chat-widget.js` (the package root)
 * registers the tag. Tools that read the manifest (Storybook, IDEs, linters) then point at files
 * that exist in the published package.
 */
const shippedPath = {
  'src/ai-chat-widget.ts': 'dist/ai-chat-widget.js',
  'src/element.ts': 'dist/element.js',
  'src/widget/core/ai-chat-widget.ts': 'dist/element.js',
  'src/widget/core/events.ts': 'dist/element.js',
};

/** `src/x.js`, `/src/x.js` and `src/x.ts` all name the source file `src/x.ts`. */
function toShipped(modulePath) {
  const source = modulePath.replace(/^\//, '').replace(/\.js$/, '.ts');
  return shippedPath[source] ?? modulePath;
}

/**
 * Keeps the manifest to the public contract and points it at the published files. Type aliases
 * that are unions of string literals (`StorageMode`) are written out, so editors can offer the
 * values (`local`, `session`, `none`) instead of an alias name they cannot resolve.
 */
function publicApiPlugin() {
  const stringUnions = new Map();
  const expand = (type) => {
    if (type?.text && stringUnions.has(type.text)) type.text = stringUnions.get(type.text);
  };
  return {
    name: 'ai-chat-widget:public-api',
    analyzePhase({ ts, node }) {
      if (!ts.isTypeAliasDeclaration(node) || !ts.isUnionTypeNode(node.type)) return;
      const literals = node.type.types.every((t) => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal));
      if (literals) stringUnions.set(node.name.getText(), node.type.getText());
    },
    packageLinkPhase({ customElementsManifest }) {
      const merged = new Map();
      // modules read only for their type aliases (storage.ts) are not part of the manifest
      customElementsManifest.modules = customElementsManifest.modules.filter((m) => toShipped(m.path) !== m.path);
      for (const mod of customElementsManifest.modules) {
        for (const declaration of mod.declarations ?? []) {
          for (const item of [...(declaration.attributes ?? []), ...(declaration.members ?? [])]) expand(item.type);
          // private and protected members are implementation, not API; nor are the attributes the
          // analyser derives from private state in `static properties` (`{ state: true }`)
          const hidden = new Set(declaration.members?.filter((m) => m.privacy && m.privacy !== 'public').map((m) => m.name));
          declaration.members = declaration.members?.filter((m) => !hidden.has(m.name));
          // public is the default: the analyser says so only of fields it also read from `static properties`
          for (const m of declaration.members ?? []) if (m.privacy === 'public') delete m.privacy;
          declaration.attributes = declaration.attributes?.filter((a) => !hidden.has(a.fieldName));
          // `dispatchEvent(new AiChatOpenEvent())` yields a nameless duplicate of the @fires entry
          declaration.events = declaration.events?.filter((e) => e.name);
          // the events extend the DOM's `Event`, which the analyser places in their own module
          if (declaration.superclass?.name === 'Event') declaration.superclass = { name: 'Event', package: 'global:' };
          // the element's properties, parts and custom properties are declared on `WidgetProperties`,
          // an internal base class: they are the element's own to its users, and it is a LitElement
          if (declaration.superclass?.name === 'WidgetProperties') declaration.superclass = { name: 'LitElement', package: 'lit' };
          for (const kind of ['attributes', 'members', 'cssParts', 'cssProperties', 'slots', 'events']) {
            for (const item of declaration[kind] ?? []) if (item.inheritedFrom?.name === 'WidgetProperties') delete item.inheritedFrom;
          }
        }
        for (const entry of mod.exports ?? []) {
          if (entry.declaration?.module) entry.declaration.module = toShipped(entry.declaration.module);
        }
        const path = toShipped(mod.path);
        const target = merged.get(path);
        if (!target) merged.set(path, { ...mod, path });
        else {
          target.declarations = [...(target.declarations ?? []), ...(mod.declarations ?? [])];
          target.exports = [...(target.exports ?? []), ...(mod.exports ?? [])];
        }
      }
      customElementsManifest.modules = [...merged.values()];
    },
  };
}

export default {
  // storage.ts only for its `StorageMode` union, widget-properties.ts for what the element inherits
  // from it (see publicApiPlugin): neither is a module of the manifest
  globs: [
    'src/ai-chat-widget.ts',
    'src/widget/core/ai-chat-widget.ts',
    'src/widget/core/widget-properties.ts',
    'src/widget/core/events.ts',
    'src/widget/conversation/storage.ts',
  ],
  exclude: ['test/**', '**/*.test.ts'],
  outdir: 'dist',
  litelement: true,
  // package.json carries `"customElements": "dist/custom-elements.json"` by hand; the analyser
  // rewriting package.json during every build would race other edits of that file
  packagejson: false,
  plugins: [publicApiPlugin()],
};
