// The markdown LLMs write: tables, headings, quotes, nested and task lists, rules
// and code blocks with a language label, a Copy button and a host's highlighter; still no raw HTML,
// the same link allowlist, linear parsing, and incremental streaming for the new blocks.
import { expect } from '@open-wc/testing';
import { html, render } from 'lit';
import { blockWork, inlineWork, parseBlocks, renderMarkdown, splitBlocks, type MarkdownOptions } from '../../src/widget/markdown/markdown.js';
import { streamedMarkdown } from '../../src/widget/markdown/streamed-markdown.js';
import { deltasOf, markdownDocument } from '../../bench/lib/markdown-doc.js';

function md(source: string, options?: MarkdownOptions): HTMLDivElement {
  const div = document.createElement('div');
  render(renderMarkdown(source, options), div);
  return div;
}

/** Renders `source` streamed into `div` (one call site: Lit keeps the directive between calls). */
function stream(div: HTMLElement, source: string, options?: MarkdownOptions): void {
  render(html`${streamedMarkdown(source, options)}`, div);
}

const clean = (node: Element): string => node.innerHTML.replace(/<!--[^>]*-->/g, '');
const texts = (root: Element, selector: string) => [...root.querySelectorAll(selector)].map((e) => e.textContent!.trim());

/** Characters the block splitter saw for `source`, per character. */
function blockWorkPerChar(source: string): number {
  blockWork.chars = 0;
  blockWork.nested = 0;
  inlineWork.steps = 0;
  md(source);
  return (blockWork.chars + blockWork.nested) / source.length;
}

const TABLE = '| Plan | Price | Seats |\n|:-----|------:|:-----:|\n| Free | 0 € | 1 |\n| Team | 10 € | `a \\| b` |';

describe('rich markdown', () => {
  describe('tables', () => {
    it('renders a GFM table with its header, alignments and an escaped pipe', () => {
      const div = md(`Compare:\n${TABLE}`);
      expect(div.querySelector('p')!.textContent).to.equal('Compare:');
      expect(texts(div, 'thead th')).to.deep.equal(['Plan', 'Price', 'Seats']);
      expect([...div.querySelectorAll('tbody tr')].map((tr) => texts(tr, 'td'))).to.deep.equal([
        ['Free', '0 €', '1'],
        ['Team', '10 €', 'a | b'],
      ]);
      expect([...div.querySelectorAll('thead th')].map((th) => th.className)).to.deep.equal(['left', 'right', 'center']);
      expect(div.querySelector('tbody code')!.textContent).to.equal('a | b');
    });

    it('sits in a labelled, focusable region that scrolls sideways on a narrow screen', async () => {
      const div = md(`| a | b |\n|---|---|\n| ${'unbreakable'.repeat(40)} | x |`, {
        strings: { copy: 'Copy', copied: 'Copied', table: 'Tabelle' },
      });
      div.style.width = '240px';
      document.body.append(div);
      try {
        const region = div.querySelector<HTMLElement>('[part="table"]')!;
        expect(region.getAttribute('role')).to.equal('region');
        expect(region.getAttribute('aria-label')).to.equal('Tabelle');
        expect(region.tabIndex).to.equal(0);
        expect(region.contains(div.querySelector('table'))).to.equal(true);
        // the styles scroll it; here the div has none, so check the layout the widget gives it below
        region.style.overflowX = 'auto';
        expect(region.scrollWidth).to.be.above(region.clientWidth);
        expect(div.scrollWidth).to.equal(div.clientWidth);
      } finally {
        div.remove();
      }
    });

    it('keeps every cell: short rows are padded, extra cells stay', () => {
      const div = md('| a | b |\n|---|---|\n| 1 |\n| 1 | 2 | 3 |');
      const rows = [...div.querySelectorAll('tbody tr')].map((tr) => texts(tr, 'td'));
      expect(rows).to.deep.equal([['1', ''], ['1', '2', '3']]);
    });

    it('is not a table without a matching delimiter row, and ends at a line without a pipe', () => {
      expect(parseBlocks('a | b\n|---|').map((b) => b.kind)).to.deep.equal(['p']);
      expect(parseBlocks('| a |\n|---|\n| 1 |\nafter').map((b) => b.kind)).to.deep.equal(['table', 'p']);
    });
  });

  describe('blocks', () => {
    it('never skips a heading level below the panel title, whatever level the reply starts at', () => {
      const levels = (source: string) => [...md(source).querySelectorAll('[role="heading"]')].map((h) => h.getAttribute('aria-level'));
      expect(levels('### First\n# Top\n##### Deep\n\n> ## In a quote')).to.deep.equal(['3', '3', '4', '4']);
    });

    it('renders heading levels under the panel title', () => {
      const div = md('# One\n## Two\n### Three\n###### Six');
      expect([...div.querySelectorAll('[role="heading"]')].map((h) => [h.textContent, h.getAttribute('aria-level')])).to.deep.equal([
        ['One', '3'],
        ['Two', '4'],
        ['Three', '5'],
        ['Six', '6'],
      ]);
    });

    it('renders blockquotes with their own blocks, nested quotes included', () => {
      const div = md('> **Note**\n> - a\n> - b\n>\n> > inner');
      const quote = div.querySelector('blockquote')!;
      expect(quote.querySelector('p strong')!.textContent).to.equal('Note');
      expect(texts(quote, ':scope > ul > li')).to.deep.equal(['a', 'b']);
      expect(quote.querySelector(':scope blockquote p')!.textContent).to.equal('inner');
    });

    it('renders horizontal rules, and lists around them', () => {
      const div = md('before\n\n---\n\n* * *\n\n- item\n***');
      expect(div.querySelectorAll('hr')).to.have.length(3);
      expect(texts(div, 'li')).to.deep.equal(['item']);
    });

    it('nests lists by indentation (2 or 4 spaces), ordered inside bulleted and back', () => {
      const div = md('1. first\n   - a\n   - b\n     1. deep\n2. second\n    - four spaces\n3. third');
      const top = div.querySelector(':scope > ol')!;
      expect(top.children).to.have.length(3);
      const [first, second] = top.children;
      expect(first.textContent!.startsWith('first')).to.equal(true);
      expect(texts(first, ':scope > ul > li > ol > li')).to.deep.equal(['deep']);
      expect(texts(second, ':scope > ul > li')).to.deep.equal(['four spaces']);
    });

    it('keeps one list across blank lines, with paragraphs and code inside an item', () => {
      const div = md('1. Install:\n\n   ```sh\n   npm i x\n   ```\n\n2. Run it.\n\n   It starts at once.');
      const items = div.querySelectorAll(':scope > ol > li');
      expect(items).to.have.length(2);
      expect(items[0].querySelector('code')!.textContent).to.equal('npm i x');
      expect(items[1].querySelector('p')!.textContent).to.equal('It starts at once.');
    });

    it('renders task lists with disabled checkboxes inside labels', () => {
      const div = md('- [x] done **well**\n- [ ] to do\n- [X] also done\n- plain');
      const boxes = [...div.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')];
      expect(boxes.map((b) => [b.checked, b.disabled])).to.deep.equal([
        [true, true],
        [false, true],
        [true, true],
      ]);
      expect(boxes[0].closest('label')!.textContent).to.equal('done well');
      expect(div.querySelectorAll('li')[3].querySelector('input')).to.equal(null);
    });
  });

  describe('code blocks', () => {
    it('shows the language and a Copy button above the code', () => {
      const div = md('```ts\nconst a = 1;\n```\n\n```\nplain\n```', { strings: { copy: 'Kopieren', copied: 'Kopiert', table: 'T' } });
      const [ts, plain] = div.querySelectorAll('[part="code-block"]');
      expect(ts.querySelector('.bar > span')!.textContent).to.equal('ts');
      expect(ts.querySelector('[part="copy-button"]')!.textContent).to.equal('Kopieren');
      expect(ts.querySelector('pre code')!.textContent).to.equal('const a = 1;');
      expect(plain.querySelector('.bar > span')!.textContent).to.equal('');
    });

    it('colours code with the host highlighter: tokens become parts, never HTML', () => {
      const calls: [string, string][] = [];
      const div = md('```js\nlet x = "<b>";\n```', {
        highlight: (code, lang) => {
          calls.push([code, lang]);
          return [
            { text: 'let', type: 'keyword' },
            { text: ' x = ' },
            { text: '"<b>"', type: 'string quoted' },
            { text: ';' },
          ];
        },
      });
      expect(calls).to.deep.equal([['let x = "<b>";', 'js']]);
      const spans = [...div.querySelectorAll('pre code span')];
      expect(spans.map((s) => [...s.part].join(' '))).to.deep.equal(['token token-keyword', 'token', 'token token-string token-quoted', 'token']);
      expect(div.querySelector('pre code')!.textContent).to.equal('let x = "<b>";');
      expect(div.querySelector('pre b')).to.equal(null);
    });

    it('takes a DOM node from the highlighter, shows a string as text, and plain code when it throws', () => {
      const node = document.createElement('span');
      node.className = 'host-made';
      node.textContent = 'x';
      expect(md('```\nx\n```', { highlight: () => node }).querySelector('pre code .host-made')).to.equal(node);
      const asString = md('```\nx\n```', { highlight: () => '<img src=x onerror=alert(1)>' as unknown as Node });
      expect(asString.querySelector('img')).to.equal(null);
      expect(asString.querySelector('pre code')!.textContent).to.equal('x');
      const failing = md('```\ny\n```', {
        highlight: () => {
          throw new Error('boom');
        },
      });
      expect(failing.querySelector('pre code')!.textContent).to.equal('y');
    });
  });

  describe('safety', () => {
    it('shows raw HTML in every new block as text', () => {
      const hostile = '<img src=x onerror="window.__richTrip=1">';
      const div = md(
        `# ${hostile}\n\n> ${hostile}\n\n- [x] ${hostile}\n\n| ${hostile} | b |\n|---|---|\n| ${hostile} | c |\n\n\`\`\`${hostile}\ncode\n\`\`\``,
      );
      expect(div.querySelector('img, script')).to.equal(null);
      expect((window as unknown as { __richTrip?: number }).__richTrip).to.equal(undefined);
      expect(div.textContent!.split('<img src=x onerror=').length - 1).to.be.at.least(5);
    });

    it('links only http(s) and mailto URLs in tables, quotes and list items', () => {
      const div = md('| [a](javascript:alert(1)) | [b](https://ok.example/) |\n|---|---|\n\n> [c](data:text/html,x)\n\n- [ ] [d](vbscript:x)');
      expect([...div.querySelectorAll('a')].map((a) => a.getAttribute('href'))).to.deep.equal(['https://ok.example/']);
      expect(div.textContent).to.contain('a').and.contain('c').and.contain('d');
    });

    it('shows direction controls in link text inside a table cell', () => {
      const a = md('| [invoice\u202Efdp.exe](https://example.com/x) |\n|---|').querySelector('a')!;
      expect(a.textContent).to.equal('invoice<U+202E>fdp.exe');
      expect(a.getAttribute('dir')).to.equal('auto');
    });
  });

  describe('work stays linear in the length of the text', () => {
    const cases: [string, string][] = [
      ['100k of table rows', '| a | b |\n|---|---|\n' + '| `x` | **y** |\n'.repeat(7_000)],
      ['200k of pipes', '|'.repeat(200_000)],
      ['100k of header-like lines', 'a | b\n'.repeat(20_000)],
      ['100k of nested quote markers', '>'.repeat(100_000) + ' x'],
      ['50k lines of quotes 40 deep', ('>'.repeat(40) + ' x\n').repeat(1_200)],
      ['a list nested 2,000 deep', Array.from({ length: 2_000 }, (_, i) => ' '.repeat(i * 2) + '- x').join('\n')],
      ['20k list items with blank lines', '- x\n\n'.repeat(20_000)],
      ['20k task items', '- [ ] x\n'.repeat(20_000)],
      ['40k unclosed fences', '```\n'.repeat(40_000)],
      ['40k rules and headings', '---\n# h\n'.repeat(10_000)],
    ];
    for (const [name, text] of cases) {
      it(`${name} (${text.length} characters)`, () => {
        // each nesting level (at most 8) looks at its content once more
        expect(blockWorkPerChar(text)).to.be.below(12);
        expect(inlineWork.steps / text.length).to.be.below(30);
      });
    }
  });

  describe('streaming the new blocks', () => {
    const doc = [
      '## Plans',
      TABLE,
      'Intro right above a table\n| x | y |\n|---|---|\n| 1 | 2 |',
      '> quoted **text**\n> - in a list\n>\n> > nested',
      '1. one\n   - [x] done\n   - [ ] open\n     1. deeper\n2. two\n\n   more of two',
      '---',
      '```js\nconst a = 1;\n\nconst b = 2;\n```',
      '- a\n\n- b\n* other kind',
    ].join('\n\n');

    it('renders every prefix exactly as a one-shot render does', () => {
      const div = document.createElement('div');
      for (let end = 0, i = 0; end < doc.length; i++) {
        end = Math.min(doc.length, end + 1 + (i % 2));
        const prefix = doc.slice(0, end);
        stream(div, prefix);
        expect(clean(div), `prefix of ${end} characters: ${JSON.stringify(prefix.slice(-20))}`).to.equal(clean(md(prefix)));
      }
    });

    it('streams the bench document (tables, quotes, task lists) in its deltas, ending as a one-shot render', () => {
      const source = markdownDocument(12_000, 'THE END');
      expect(parseBlocks(source).map((b) => b.kind)).to.include.members(['table', 'quote', 'hr', 'ul', 'ol', 'code', 'h']);
      const div = document.createElement('div');
      let text = '';
      blockWork.chars = 0;
      for (const delta of deltasOf(source)) stream(div, (text += delta));
      expect(clean(div)).to.equal(clean(md(source)));
      // each block parsed about once per delta while it was open, not the whole text each time
      expect(blockWork.chars).to.be.below(40 * source.length);
    });

    it('grows a table row by row: rows already shown are kept, and the block before it is finished', () => {
      const head = 'Before.\n\n| n | square |\n|---|---|\n';
      const div = document.createElement('div');
      stream(div, head + '| 1 | 1 |\n');
      const first = div.querySelector('tbody tr')!;
      const before = div.querySelector('p')!;
      for (let n = 2; n <= 40; n++) {
        const rows = Array.from({ length: n }, (_, i) => `| ${i + 1} | ${(i + 1) ** 2} |`).join('\n');
        blockWork.chars = 0;
        stream(div, head + rows);
        // only the table is parsed again, not the paragraph before it
        expect(blockWork.chars).to.equal(head.length - 'Before.\n\n'.length + rows.length);
      }
      expect(div.querySelectorAll('tbody tr')).to.have.length(40);
      expect(div.querySelector('tbody tr'), 'the first row was never rendered again').to.equal(first);
      expect(div.querySelector('p')).to.equal(before);
    });

    it('grows a nested list item by item, keeping the items shown', () => {
      const div = document.createElement('div');
      let source = '- top\n';
      stream(div, source);
      const top = div.querySelector('li')!;
      for (let i = 0; i < 20; i++) {
        source += `  - child ${i}\n`;
        stream(div, source);
      }
      expect(div.querySelector('li')).to.equal(top);
      expect(texts(top, ':scope > ul > li')).to.have.length(20);
    });

    it('links [n] markers once the sources arrive, in place, without re-parsing the text', () => {
      const div = document.createElement('div');
      const source = 'Ships in 2 days [1].\n\nReturns take 14 days [2] or [3].\n';
      stream(div, source);
      const paragraphs = [...div.querySelectorAll('p')];
      expect(div.querySelector('a')).to.equal(null);
      blockWork.chars = 0;
      stream(div, source, { sources: ['m1-source-1', 'm1-source-2'] });
      const markers = [...div.querySelectorAll('a.cite')];
      expect(markers.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('aria-describedby')])).to.deep.equal([
        ['[1]', '#m1-source-1', 'm1-source-1'],
        ['[2]', '#m1-source-2', 'm1-source-2'],
      ]);
      expect(div.textContent).to.contain('[3]'); // no third source: text
      expect([...div.querySelectorAll('p')]).to.deep.equal(paragraphs);
      expect(blockWork.chars, 'only the open block').to.be.below(source.length);
      expect(clean(div)).to.equal(clean(md(source, { sources: ['m1-source-1', 'm1-source-2'] })));
    });
  });

  it('splits blocks with the offsets streaming relies on', () => {
    const source = 'p\n\n| a |\n|---|\n| 1 |\n\n> q';
    expect(splitBlocks(source).map((b) => [b.block.kind, b.from])).to.deep.equal([
      ['p', 0],
      ['table', 3],
      ['quote', source.indexOf('>')],
    ]);
  });
});
