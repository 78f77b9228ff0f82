import { expect } from '@open-wc/testing';
import { render } from 'lit';
import { inlineWork, parseBlocks, renderInline, renderMarkdown, safeHref } from '../../src/widget/markdown/markdown.js';

/** Renders `source` into a detached div and returns it. */
function md(source: string): HTMLDivElement {
  const div = document.createElement('div');
  render(renderMarkdown(source), div);
  return div;
}

/** The rendered HTML without Lit's comment markers, for readable structural assertions. */
function clean(div: HTMLElement): string {
  return div.innerHTML.replace(/<!--[^>]*-->/g, '');
}

describe('markdown', () => {
  describe('blocks', () => {
    it('splits paragraphs on blank lines and keeps single newlines as <br>', () => {
      const div = md('First line\nsecond line\n\nNext paragraph');
      expect(div.querySelectorAll('p')).to.have.length(2);
      expect(div.querySelector('p')!.querySelectorAll('br')).to.have.length(1);
      expect(div.querySelector('p')!.textContent).to.equal('First linesecond line');
    });

    it('renders bulleted and numbered lists, keeping the start number', () => {
      const div = md('Steps:\n- one\n- two\n\n3. three\n4. four');
      expect([...div.querySelectorAll('ul li')].map((li) => li.textContent)).to.deep.equal(['one', 'two']);
      expect([...div.querySelectorAll('ol li')].map((li) => li.textContent)).to.deep.equal(['three', 'four']);
      expect(div.querySelector('ol')!.getAttribute('start')).to.equal('3');
    });

    it('renders a fenced code block verbatim, markdown and HTML included', () => {
      const div = md('```js\nconst a = **b** < c;\n<b>x</b>\n```');
      const code = div.querySelector('pre > code')!;
      expect(code.textContent).to.equal('const a = **b** < c;\n<b>x</b>');
      expect(code.children).to.have.length(0);
    });

    it('runs an unclosed fence to the end', () => {
      expect(parseBlocks('```\nline')).to.deep.equal([{ kind: 'code', text: 'line' }]);
    });

    it('renders headings as headings below the panel title (they were bold lines before)', () => {
      expect(clean(md('## Title'))).to.equal('<p role="heading" aria-level="3">Title</p>');
    });
  });

  describe('inline', () => {
    it('renders bold, emphasis and inline code', () => {
      expect(clean(md('a **bold** and *em* and `x < y`'))).to.equal(
        '<p>a <strong>bold</strong> and <em>em</em> and <code>x &lt; y</code></p>',
      );
    });

    it('leaves lone asterisks and snake_case alone', () => {
      expect(md('2 * 3 * 4 = 24, my_var_name').textContent).to.equal('2 * 3 * 4 = 24, my_var_name');
    });

    it('renders http(s) and mailto links that open safely in a new tab', () => {
      const div = md('[Docs](https://example.com/docs?a=1) or [mail](mailto:help@example.com)');
      const links = [...div.querySelectorAll('a')];
      expect(links.map((a) => a.getAttribute('href'))).to.deep.equal([
        'https://example.com/docs?a=1',
        'mailto:help@example.com',
      ]);
      for (const a of links) {
        expect(a.getAttribute('target')).to.equal('_blank');
        expect(a.getAttribute('rel')).to.equal('noopener noreferrer');
      }
    });

    it('links bare URLs without their trailing punctuation', () => {
      const a = md('See https://example.com/a.').querySelector('a')!;
      expect(a.getAttribute('href')).to.equal('https://example.com/a');
    });
  });

  describe('work stays linear in the length of the text', () => {
    /** Characters the inline scanner visits for `text`, per character of it. */
    function workPerChar(text: string): number {
      inlineWork.steps = 0;
      renderInline(text);
      return inlineWork.steps / text.length;
    }

    // A regex with a lazy body tried at every opener visits the rest of the text once per opener:
    // thousands of visits per character on these. One table pass plus one scan is 2 per character;
    // each nesting level adds at most that again for the nested part.
    const cases: [string, string][] = [
      ['200k of unclosed emphasis', '*a '.repeat(66_667)],
      ['200k of unclosed bold', '**a '.repeat(50_000)],
      ['200k of asterisks', '*'.repeat(200_000) + 'x'],
      ['200k of open brackets before one link', '['.repeat(200_000) + 'x](https://example.com/)'],
      ['50k open brackets before a long unclosed URL', '['.repeat(50_000) + 'x](' + 'a'.repeat(150_000)],
      ['200k of backticks and unclosed code', '`a'.repeat(100_000)],
      ['50k-deep nested bold', '**'.repeat(25_000) + 'x' + '**'.repeat(25_000)],
      ['50k alternating bold and emphasis', '***a '.repeat(10_000) + 'b***'.repeat(10_000)],
      ['200k of URLs', 'http://a.example/x '.repeat(10_527)],
    ];
    for (const [name, text] of cases) {
      it(`${name} (${text.length} characters)`, () => {
        expect(workPerChar(text)).to.be.below(20);
      });
    }

    it('renders text nested deeper than the limit as plain text, nothing lost', () => {
      let text = 'core';
      for (let i = 0; i < 12; i++) text = `[${i % 2 ? '*' : ''}a ${text}${i % 2 ? '*' : ''}](https://e.example/${i})`;
      const div = document.createElement('div');
      render(renderInline('*x ' + text + '*'), div);
      expect(div.textContent).to.contain('core');
    });

    it('still finds the nearest closer, as before', () => {
      expect(clean(md('**a** b **c**'))).to.equal('<p><strong>a</strong> b <strong>c</strong></p>');
      expect(clean(md('*a* **b *c* d**'))).to.equal('<p><em>a</em> <strong>b <em>c</em> d</strong></p>');
      expect(clean(md('`a` `b'))).to.equal('<p><code>a</code> `b</p>');
      expect(md('[a [b](https://x.example/)').querySelector('a')!.textContent).to.equal('a [b');
    });
  });

  describe('safety', () => {
    it('shows raw HTML as text and creates no element from it', () => {
      (window as unknown as { __mdTripwire?: number }).__mdTripwire = 0;
      const div = md('<img src=x onerror="window.__mdTripwire=1"> <script>window.__mdTripwire=2</script> <b>b</b>');
      expect(div.querySelector('img, script, b')).to.equal(null);
      expect(div.textContent).to.contain('<img src=x onerror=');
      expect((window as unknown as { __mdTripwire?: number }).__mdTripwire).to.equal(0);
    });

    it('renders javascript:, data: and relative links as plain text', () => {
      for (const source of [
        '[click](javascript:alert(1))',
        '[click](JaVaScRiPt:alert(1))',
        '[click](java\tscript:alert(1))',
        '[click](data:text/html,<b>x</b>)',
        '[click](/relative/path)',
        '[click](vbscript:msgbox)',
      ]) {
        const div = md(source);
        expect(div.querySelector('a'), source).to.equal(null);
        expect(div.textContent, source).to.contain('click');
      }
    });

    it('admits only absolute http, https and mailto URLs', () => {
      expect(safeHref('https://a.example/x')).to.equal('https://a.example/x');
      expect(safeHref('http://a.example')).to.equal('http://a.example/');
      expect(safeHref('mailto:a@b.example')).to.equal('mailto:a@b.example');
      expect(safeHref(' javascript:alert(1)')).to.equal(null);
      expect(safeHref('ftp://a.example')).to.equal(null);
      expect(safeHref('//a.example')).to.equal(null);
    });

    it('keeps attribute-breaking characters inside the href', () => {
      const a = md('[x](https://example.com/"onmouseover="alert(1))').querySelector('a');
      if (a) {
        // `dir` is the renderer's own (links are bidi isolates, see below); nothing else may appear
        expect(a.getAttributeNames().sort()).to.deep.equal(['dir', 'href', 'rel', 'target']);
      }
    });
  });

  describe('direction controls', () => {
    it('shows a right-to-left override in link text instead of letting it reverse the name', () => {
      const a = md('[invoice\u202Efdp.exe](https://example.com/x)').querySelector('a')!;
      expect(a.getAttribute('href')).to.equal('https://example.com/x');
      expect(a.textContent).to.equal('invoice<U+202E>fdp.exe');
    });

    it('shows every kind of direction control in link text, nested markup and bare URLs included', () => {
      const controls = '\u061C\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069';
      const div = md(`[**a${controls}** \`b\u202Ec\`](https://example.com/) and https://example.com/\u202Efdp.exe`);
      const [named, bare] = div.querySelectorAll('a');
      expect(named.textContent).to.equal(
        'a<U+061C><U+200E><U+200F><U+202A><U+202B><U+202C><U+202D><U+202E><U+2066><U+2067><U+2068><U+2069> b<U+202E>c',
      );
      expect(bare.textContent).to.equal('https://example.com/<U+202E>fdp.exe');
      expect(bare.getAttribute('href')).to.equal('https://example.com/%E2%80%AEfdp.exe');
      expect(div.textContent).not.to.match(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    });

    it('keeps direction marks in plain text (right-to-left writing needs them), where they cannot reach into a link', () => {
      const div = md('\u202Eplain \u05E9\u05DC\u05D5\u05DD\u200F [fdp.exe](https://example.com/y) after');
      document.body.append(div);
      try {
        expect(div.querySelector('p')!.textContent).to.equal('\u202Eplain \u05E9\u05DC\u05D5\u05DD\u200F fdp.exe after');
        const a = div.querySelector('a')!;
        // an isolate: the override before it does not apply inside, so "fdp.exe" reads as written
        expect(a.getAttribute('dir')).to.equal('auto');
        expect(getComputedStyle(a).unicodeBidi).to.equal('isolate');
        const range = document.createRange();
        range.selectNodeContents(a);
        const text = [...a.childNodes].find((n) => n.nodeType === Node.TEXT_NODE)!;
        const first = document.createRange();
        first.setStart(text, 0);
        first.setEnd(text, 1);
        // "f" is at the left edge of the link's box (reversed, it would be at the right)
        expect(first.getBoundingClientRect().left).to.be.closeTo(range.getBoundingClientRect().left, 1);
      } finally {
        div.remove();
      }
    });
  });
});
