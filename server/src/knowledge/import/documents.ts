/**
 * Documents to sections: Markdown, HTML, plain text and PDF become a title plus the text under each
 * heading, with the headings above it (its heading path, outermost first) — what an imported entry
 * is made of and what its citation shows. HTML also yields the links a crawl follows.
 *
 * Markdown is read by `marked`'s lexer (headings of both styles, never inside code fences); HTML by
 * `html-to-text` with its headings marked, and `htmlparser2` for the title and links; PDF by `unpdf`
 * (a page is a section: PDFs carry no reliable headings in their text).
 */
import { Parser } from 'htmlparser2';
import { htmlToText, type FormatCallback } from 'html-to-text';
import { Lexer } from 'marked';
import { extractText, getDocumentProxy } from 'unpdf';
import { assertInflatesWithin } from './inflate-budget.ts';
import { ImportIssueError } from './issue.ts';

export type DocumentFormat = 'markdown' | 'html' | 'text' | 'pdf';

export interface Section {
  /** The headings above the text, outermost first; `[]` before the first heading. */
  headingPath: string[];
  text: string;
}

export interface ParsedDocument {
  title: string;
  sections: Section[];
  /** `href`s of the document's links, as written (HTML only). */
  links: string[];
}

const MEDIA_TYPES: Record<string, DocumentFormat> = {
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
  'application/pdf': 'pdf',
};

const EXTENSIONS: Record<string, DocumentFormat> = {
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  txt: 'text',
  text: 'text',
  pdf: 'pdf',
};

/** The format of a media type (parameters ignored), or null when it cannot be imported. */
export function formatOfMediaType(mediaType: string): DocumentFormat | null {
  return MEDIA_TYPES[mediaType.split(';')[0]!.trim().toLowerCase()] ?? null;
}

export function formatOfName(name: string): DocumentFormat | null {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (extension && EXTENSIONS[extension]) || null;
}

export const SUPPORTED_MEDIA_TYPES = Object.keys(MEDIA_TYPES);

/** What one document may take: its sections (headings, PDF pages) and the bytes its PDF streams inflate to. */
export interface ParseLimits {
  maxSections: number;
  maxInflatedBytes: number;
}

/**
 * Parses `bytes` as `format`; `fallbackTitle` (a file name or URL) when the document names none.
 * Text is decoded as `charset` (a page's Content-Type parameter) when the runtime knows it, else UTF-8.
 * Runs in the parsing thread (`parser.ts`), never on the service's event loop.
 */
export async function parseDocument(
  bytes: Uint8Array,
  format: DocumentFormat,
  fallbackTitle: string,
  limits: ParseLimits,
  charset?: string,
): Promise<ParsedDocument> {
  const parsed = await parse(bytes, format, fallbackTitle, decoderFor(charset), limits);
  if (parsed.sections.length === 0) throw new ImportIssueError('empty_document', `${fallbackTitle} has no text to import.`);
  assertSections(parsed.sections.length, fallbackTitle, limits);
  return parsed;
}

function assertSections(count: number, name: string, limits: ParseLimits): void {
  if (count <= limits.maxSections) return;
  throw new ImportIssueError('too_many_sections', `${name} has ${count} sections (headings or pages); a document may have at most ${limits.maxSections}.`);
}

function decoderFor(charset: string | undefined): TextDecoder {
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    return new TextDecoder(); // a label the runtime does not know: UTF-8
  }
}

async function parse(bytes: Uint8Array, format: DocumentFormat, fallbackTitle: string, decoder: TextDecoder, limits: ParseLimits): Promise<ParsedDocument> {
  switch (format) {
    case 'pdf':
      return parsePdf(bytes, fallbackTitle, limits);
    case 'html':
      return parseHtml(decoder.decode(bytes), fallbackTitle);
    case 'markdown':
      return parseMarkdown(decoder.decode(bytes), fallbackTitle);
    case 'text': {
      const text = decoder.decode(bytes).trim();
      return { title: fallbackTitle, sections: text ? [{ headingPath: [], text }] : [], links: [] };
    }
  }
}

type Block = { heading: number; text: string } | { heading: 0; text: string };

/** Headings open sections; a heading closes every open one at its level or deeper. */
function sectionsOf(blocks: Iterable<Block>): Section[] {
  const sections: Section[] = [];
  const open: { level: number; text: string }[] = [];
  let text: string[] = [];
  const flush = () => {
    const body = text.join('\n\n').replace(/\n{3,}/g, '\n\n').trim();
    if (body) sections.push({ headingPath: open.map((h) => h.text), text: body });
    text = [];
  };
  for (const block of blocks) {
    if (block.heading === 0) {
      text.push(block.text);
      continue;
    }
    flush();
    while (open.length && open.at(-1)!.level >= block.heading) open.pop();
    open.push({ level: block.heading, text: block.text.slice(0, 200) });
  }
  flush();
  return sections;
}

/** A heading's text without inline Markdown (links keep their text). */
function plainInline(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function parseMarkdown(markdown: string, fallbackTitle: string): ParsedDocument {
  const tokens = new Lexer({ gfm: true }).lex(markdown);
  const blocks: Block[] = [];
  let title: string | null = null;
  for (const token of tokens) {
    if (token.type === 'heading') {
      const text = plainInline(token.text as string);
      if (token.depth === 1 && title === null) title = text;
      if (text) blocks.push({ heading: token.depth as number, text });
    } else if (token.type !== 'space') {
      blocks.push({ heading: 0, text: token.raw.trim() });
    }
  }
  return { title: title || fallbackTitle, sections: sectionsOf(blocks), links: [] };
}

/** Marks a heading line in html-to-text's output: a private-use character, then the level. */
const HEADING_MARK = '\uE000';
const SKIPPED = ['script', 'style', 'noscript', 'template', 'svg', 'nav', 'header', 'footer', 'form', 'img', 'iframe', 'button'];

const markHeading: FormatCallback = (elem, walk, builder, options) => {
  builder.openBlock({ leadingLineBreaks: 2 });
  builder.addLiteral(`${HEADING_MARK}${String(options.level)} `);
  walk(elem.children, builder);
  builder.closeBlock({ trailingLineBreaks: 2 });
};

export function parseHtml(html: string, fallbackTitle: string): ParsedDocument {
  const links: string[] = [];
  let title = '';
  let inTitle = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'a' && attributes.href) links.push(attributes.href);
        if (name === 'title') inTitle = true;
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  const text = htmlToText(html, {
    wordwrap: false,
    baseElements: { selectors: ['main', 'article', 'body'], returnDomByDefault: true },
    formatters: { markHeading },
    selectors: [
      ...[1, 2, 3, 4, 5, 6].map((level) => ({ selector: `h${level}`, format: 'markHeading', options: { level } })),
      { selector: 'a', options: { ignoreHref: true } },
      ...SKIPPED.map((selector) => ({ selector, format: 'skip' })),
    ],
  });
  const blocks: Block[] = [];
  for (const paragraph of text.split(/\n{2,}/)) {
    if (paragraph.startsWith(HEADING_MARK)) {
      const level = Number(paragraph[1]);
      const heading = paragraph.slice(3).replace(/\s+/g, ' ').trim();
      if (heading) blocks.push({ heading: level, text: heading });
    } else if (paragraph.trim()) {
      blocks.push({ heading: 0, text: paragraph.trim() });
    }
  }
  return { title: title.replace(/\s+/g, ' ').trim() || fallbackTitle, sections: sectionsOf(blocks), links };
}

async function parsePdf(bytes: Uint8Array, fallbackTitle: string, limits: ParseLimits): Promise<ParsedDocument> {
  assertInflatesWithin(bytes, limits.maxInflatedBytes, fallbackTitle);
  let pages: string[];
  let title: string | undefined;
  try {
    // unpdf may transfer the buffer to its worker: give it a copy.
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    // Counted before any page is read: a PDF of 20,000 pages is refused, not read for minutes.
    if (pdf.numPages > limits.maxSections) {
      await pdf.destroy();
      assertSections(pdf.numPages, fallbackTitle, limits);
    }
    const metadata = await pdf.getMetadata().catch(() => null);
    title = (metadata?.info as { Title?: string } | undefined)?.Title?.trim();
    pages = (await extractText(pdf, { mergePages: false })).text;
    await pdf.destroy();
  } catch (error) {
    if (error instanceof ImportIssueError) throw error;
    throw new ImportIssueError('unreadable_document', `${fallbackTitle} is not a readable PDF (${(error as Error).message}).`);
  }
  const sections = pages
    .map((text, i) => ({ headingPath: pages.length > 1 ? [`Page ${i + 1}`] : [], text: text.trim() }))
    .filter((s) => s.text);
  return { title: title || fallbackTitle, sections, links: [] };
}
