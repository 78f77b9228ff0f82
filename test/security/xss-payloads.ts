/**
 * A corpus of hostile inputs for the XSS tests. Every payload is a function of a `tag`: a unique
 * run of letters that the payload shows in a visible position (a link label, text beside the
 * markup). The tests use it twice: to prove the payload's text still reads in the widget, and as
 * the search word that brings a knowledge entry (or a bot intent) back for exactly that payload.
 *
 * Every executable part calls `__pwned++` or `alert(…)`; the tests install a tripwire that counts
 * both. Nothing here may contain U+0000: PostgreSQL text refuses it, so the server channels could
 * not carry it.
 */

export interface Payload {
  name: string;
  /** The payload for `tag`; the tag appears within its first 90 characters. */
  make: (tag: string) => string;
}

const RUN = '__pwned++';

/** `javascript:`, `data:` and `vbscript:` URLs, plain and disguised. Each goes into every link form below. */
const HOSTILE_URLS: [string, string][] = [
  ['javascript', `javascript:${RUN}`],
  ['javascript mixed case', `JaVaScRiPt:${RUN}`],
  ['javascript upper', `JAVASCRIPT:alert(1)`],
  ['javascript tab-split', `java\tscript:${RUN}`],
  ['javascript newline-split', `java\nscript:${RUN}`],
  ['javascript CR-split', `java\rscript:${RUN}`],
  ['javascript control-char prefix', `\u0001javascript:${RUN}`],
  ['javascript leading space', ` javascript:${RUN}`],
  ['javascript zero-width split', `java\u200Bscript:${RUN}`],
  ['javascript soft-hyphen split', `java\u00ADscript:${RUN}`],
  ['javascript entity colon', `javascript&colon;${RUN}`],
  ['javascript decimal entities', `&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;${RUN}`],
  ['javascript hex entity', `&#x6A;avascript:${RUN}`],
  ['javascript entity tab', `jav&#x09;ascript:${RUN}`],
  ['javascript percent-encoded scheme', `%6A%61vascript:${RUN}`],
  ['javascript percent-encoded colon', `javascript%3A${RUN}`],
  ['javascript comment trick', `javascript://example.com/%0A${RUN}`],
  ['javascript cyrillic homoglyph', `\u0458avascript:${RUN}`],
  ['data html', `data:text/html,<script>${RUN}</script>`],
  ['data html base64', 'data:text/html;base64,PHNjcmlwdD5fX3B3bmVkKys8L3NjcmlwdD4='],
  ['data svg upper', `DATA:image/svg+xml,<svg onload=${RUN}>`],
  ['vbscript', 'vbscript:msgbox(1)'],
  ['vbscript mixed case', 'VbScRiPt:msgbox(1)'],
  ['protocol-relative', '//evil.example/steal'],
  ['relative path', '/relative/path'],
  ['file', 'file:///etc/passwd'],
];

/** How a URL can reach a markdown link; `{t}` is the tag, `{u}` the URL. */
const LINK_FORMS: [string, (t: string, u: string) => string][] = [
  ['inline link', (t, u) => `[${t}](${u})`],
  ['image', (t, u) => `![${t}](${u})`],
  ['angle-bracket link', (t, u) => `[${t}](<${u}>)`],
  ['reference link', (t, u) => `[${t}][ref]\n\n[ref]: ${u}`],
  ['autolink', (t, u) => `${t} <${u}>`],
];

const HTML: [string, (t: string) => string][] = [
  ['script tag', (t) => `<script>${RUN}</script> ${t}`],
  ['script tag upper', (t) => `${t} <SCRIPT>alert(1)</SCRIPT>`],
  ['img onerror', (t) => `<img src=x onerror=${RUN}> ${t}`],
  ['img onerror quoted', (t) => `${t} <img src="x" onerror="${RUN}">`],
  ['img onerror mixed case', (t) => `${t} <IMG SRC=x OnErRoR=alert(1)>`],
  ['img onerror entity body', (t) => `${t} <img src=x onerror=&#95;&#95;pwned++>`],
  ['svg onload', (t) => `${t} <svg onload=${RUN}>`],
  ['svg slash onload', (t) => `${t} <svg/onload=${RUN}>`],
  ['svg script', (t) => `${t} <svg><script>${RUN}</script></svg>`],
  ['svg animate onbegin', (t) => `${t} <svg><animate onbegin=${RUN} attributeName=x dur=1s>`],
  ['svg anchor xlink', (t) => `<svg><a xlink:href="javascript:${RUN}"><text>${t}</text></a></svg>`],
  ['svg foreignObject iframe', (t) => `${t} <svg><foreignObject><iframe srcdoc="<script>parent.${RUN}</script>"></iframe></foreignObject></svg>`],
  ['body onload', (t) => `${t} <body onload=${RUN}>`],
  ['details ontoggle', (t) => `<details open ontoggle=${RUN}><summary>${t}</summary></details>`],
  ['iframe javascript', (t) => `${t} <iframe src="javascript:${RUN}"></iframe>`],
  ['iframe srcdoc', (t) => `${t} <iframe srcdoc="<script>parent.${RUN}</script>"></iframe>`],
  ['object data', (t) => `${t} <object data="javascript:${RUN}"></object>`],
  ['embed src', (t) => `${t} <embed src="javascript:${RUN}">`],
  ['input autofocus', (t) => `${t} <input autofocus onfocus=${RUN}>`],
  ['video source onerror', (t) => `${t} <video><source onerror=${RUN}></video>`],
  ['audio onerror', (t) => `${t} <audio src=x onerror=${RUN}>`],
  ['marquee onstart', (t) => `<marquee onstart=${RUN}>${t}</marquee>`],
  ['html anchor', (t) => `<a href="javascript:${RUN}">${t}</a>`],
  ['form action', (t) => `<form action="javascript:${RUN}"><button>${t}</button></form>`],
  ['meta refresh', (t) => `${t} <meta http-equiv="refresh" content="0;url=javascript:${RUN}">`],
  ['base href', (t) => `${t} <base href="javascript:/">`],
  ['link import', (t) => `${t} <link rel=import href="data:text/html,<script>${RUN}</script>">`],
  ['mathml href', (t) => `<math href="javascript:${RUN}"><mi>${t}</mi></math>`],
  ['mathml mglyph mutation', (t) => `${t} <math><mtext><table><mglyph><style><img src=x onerror=${RUN}>`],
  ['noscript mutation', (t) => `${t} <noscript><p title="</noscript><img src=x onerror=${RUN}>">`],
  ['comment breakout', (t) => `${t} <!--<img src="--><img src=x onerror=${RUN}//">`],
  ['split script', (t) => `${t} <scr<script>ipt>${RUN}</scr</script>ipt>`],
  ['double angle', (t) => `${t} <<script>script>${RUN}<</script>/script>`],
  ['broken quotes', (t) => `${t} <img """><script>${RUN}</script>">`],
  ['attribute breakout double', (t) => `${t} "><script>${RUN}</script>`],
  ['attribute breakout single', (t) => `${t} '><img src=x onerror=${RUN}>`],
  ['textarea breakout', (t) => `${t} </textarea><script>${RUN}</script>`],
  ['title breakout', (t) => `${t} </title><script>${RUN}</script>`],
  ['template element', (t) => `${t} <template><script>${RUN}</script></template>`],
  ['custom element handler', (t) => `<x-evil onclick=${RUN}>${t}</x-evil>`],
  ['unclosed tag', (t) => `${t} <img src=x onerror=${RUN}`],
  ['nested broken html', (t) => `${t} <div><p><b><i><img src=x onerror=${RUN}></b></i></div></p>`],
  ['style tag', (t) => `${t} <style>*{background:url("javascript:${RUN}")}</style>`],
  ['style import', (t) => `${t} <style>@import 'javascript:${RUN}';</style>`],
  ['css expression', (t) => `<div style="width:expression(${RUN})">${t}</div>`],
  ['css url', (t) => `<div style="background:url(javascript:${RUN})">${t}</div>`],
  ['css behavior', (t) => `${t} <div style="behavior:url(x.htc);-moz-binding:url(x.xml#x)">`],
  ['entity-encoded script', (t) => `${t} &lt;script&gt;${RUN}&lt;/script&gt;`],
  ['unicode-escaped script', (t) => `${t} \\u003cscript\\u003e${RUN}\\u003c/script\\u003e`],
];

const MARKDOWN: [string, (t: string) => string][] = [
  ['html inside bold', (t) => `**${t} <img src=x onerror=${RUN}>**`],
  ['html inside emphasis', (t) => `*${t} <svg onload=${RUN}>*`],
  ['html inside code', (t) => `${t} \`<script>${RUN}</script>\``],
  ['html inside fence', (t) => `${t}\n\n\`\`\`html\n<script>${RUN}</script>\n\`\`\``],
  ['html as link label', (t) => `[${t} <img src=x onerror=${RUN}>](https://example.com/)`],
  ['link with title attribute trick', (t) => `[${t}](https://example.com/ "x" onmouseover="${RUN}")`],
  ['link href attribute breakout', (t) => `[${t}](https://example.com/"onmouseover="${RUN})`],
  ['bare url with script', (t) => `${t} https://example.com/<script>${RUN}</script>`],
  ['bare url attribute breakout', (t) => `${t} https://example.com/"><img src=x onerror=${RUN}>`],
  ['link in list', (t) => `- ${t}\n- [x](javascript:${RUN})\n- <img src=x onerror=${RUN}>`],
  ['link in heading', (t) => `# ${t} [x](javascript:${RUN})`],
  ['blockquote html', (t) => `> ${t}\n> <script>${RUN}</script>`],
  ['nested link', (t) => `[[${t}](javascript:${RUN})](https://example.com/)`],
  ['link inside link url', (t) => `[${t}](https://example.com/[x](javascript:${RUN}))`],
  ['mailto with html', (t) => `[${t}](mailto:a@example.com?body=<script>${RUN}</script>)`],
  ['setext heading html', (t) => `${t} <img src=x onerror=${RUN}>\n===`],
  ['table html', (t) => `| ${t} | <img src=x onerror=${RUN}> |\n|---|---|`],
];

const TEMPLATES: [string, (t: string) => string][] = [
  ['mustache constructor', (t) => `${t} {{constructor.constructor('${RUN}')()}}`],
  ['mustache arithmetic', (t) => `${t} {{7*7}} {{{html}}}`],
  ['template literal', (t) => `${t} \${${RUN}} \${alert(1)}`],
  ['ruby/erb', (t) => `${t} #{${RUN}} <%= ${RUN} %>`],
  ['angular sandbox escape', (t) => `${t} {{$on.constructor('${RUN}')()}}`],
  ['lit marker', (t) => `${t} <!--?lit$123$--> lit$123$ <?lit$1$>`],
  ['server slot braces', (t) => `${t} {name} {user_id} {{}} {}`],
];

const TEXT: [string, (t: string) => string][] = [
  ['bidi override', (t) => `${t} \u202Egnp.exe\u202C <img src=x onerror=${RUN}>`],
  ['bidi isolates', (t) => `${t} \u2066\u2067\u2068 [x](javascript:${RUN}) \u2069`],
  ['zero-width everywhere', (t) => `${t} <\u200Bscript>${RUN}</\u200Bscript> \uFEFF\u200C\u200D`],
  ['right-to-left mark link', (t) => `[${t}](\u200Fjavascript:${RUN})`],
  ['emoji and astral', (t) => `${t} 🧨 <img src=x onerror=${RUN}> 𝕏`],
];

/** Long and deeply nested inputs: parsers must stay linear and safe on them. */
const STRESS: [string, (t: string) => string][] = [
  ['100k characters of img tags', (t) => `${t} ${`<img src=x onerror=${RUN}>`.repeat(3500)}`.slice(0, 100_000)],
  ['100k plain characters', (t) => `${t} ${'A'.repeat(99_000)}`],
  ['10k nested brackets', (t) => `${t} ${'['.repeat(10_000)}x${'](javascript:__pwned++)'.repeat(50)}`],
  ['10k asterisks', (t) => `${t} ${'*'.repeat(10_000)}x`],
  ['10k nested emphasis', (t) => `${t} ${'**'.repeat(5_000)}<img src=x onerror=${RUN}>${'**'.repeat(5_000)}`],
  ['10k quote markers', (t) => `${t}\n${'>'.repeat(10_000)} <script>${RUN}</script>`],
  ['10k backticks', (t) => `${t} ${'`'.repeat(10_000)}`],
  ['10k nested divs', (t) => `${t} ${'<div>'.repeat(10_000)}<img src=x onerror=${RUN}>`],
  ['10k open parens in link', (t) => `[${t}](https://example.com/${'('.repeat(10_000)}`],
  ['many list lines', (t) => `${t}\n${`- <img src=x onerror=${RUN}>\n`.repeat(2_000)}`],
];

function build(): Payload[] {
  const out: Payload[] = [];
  for (const [urlName, url] of HOSTILE_URLS) {
    for (const [formName, form] of LINK_FORMS) {
      out.push({ name: `${formName}: ${urlName}`, make: (t) => form(t, url) });
    }
  }
  for (const group of [HTML, MARKDOWN, TEMPLATES, TEXT, STRESS]) {
    for (const [name, make] of group) out.push({ name, make });
  }
  return out;
}

/** The whole corpus (well over 100 payloads). */
export const PAYLOADS: readonly Payload[] = build();

/** The payloads short enough for channels that carry a few hundred characters at most. */
export const SHORT_PAYLOADS: readonly Payload[] = PAYLOADS.filter((p) => p.make('tagtagtag').length <= 400);

/**
 * `count` distinct tags of lower-case letters. Deterministic, and far apart in spelling, so a
 * typo-tolerant search for one never finds another.
 */
export function makeTags(count: number, seed = 7): string[] {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state;
  };
  const tags = new Set<string>();
  while (tags.size < count) {
    let tag = '';
    for (let i = 0; i < 9; i++) tag += String.fromCharCode(97 + (next() >>> 8) % 26);
    tags.add(tag);
  }
  return [...tags];
}

/** Every payload with its tag: the text a payload makes around the tag its visible part carries. */
export const CASES = (() => {
  const tags = makeTags(PAYLOADS.length);
  return PAYLOADS.map((p, i) => ({ name: p.name, tag: tags[i], text: p.make(tags[i]) }));
})();
