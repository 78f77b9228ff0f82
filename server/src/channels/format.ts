/**
 * The bot's Markdown in each platform's own markup, cut into messages the platform accepts.
 *
 * Markdown is read with `marked`'s lexer (never with regular expressions) and each token rendered
 * by the platform's dialect:
 * - Telegram: HTML parse mode. Only `&`, `<` and `>` need escaping there (and `"` in an href), the
 *   same everywhere; MarkdownV2 needs 18 characters escaped with other rules inside code and link
 *   URLs, and one slip makes Telegram refuse the whole message.
 * - WhatsApp: `*bold*`, `_italic_`, `~strike~`, ```` ```mono``` ````. WhatsApp has no escape
 *   character: text is sent as written.
 * - Slack mrkdwn: `*bold*`, `_italic_`, `~strike~`, `` `code` ``, `<url|text>`, with `&`, `<`, `>`
 *   escaped as `&amp;`, `&lt;`, `&gt;`.
 *
 * Splitting never cuts inside markup: every piece it packs (a block, an inline span, a sentence, a
 * group of code lines) is rendered whole, so an escape, a tag or a link is in one message or the
 * next, never across. Long replies break between paragraphs, else between sentences, else words.
 */
import { Lexer, type Token, type Tokens } from 'marked';

export type Platform = 'telegram' | 'whatsapp' | 'slack';

/** Characters one message may hold: Telegram's and WhatsApp's text limit, and one Slack section. */
export const MESSAGE_LIMITS: Record<Platform, number> = { telegram: 4096, whatsapp: 4096, slack: 3000 };

export interface CitationLink {
  title: string;
  url?: string | null;
}

interface Dialect {
  escape(text: string): string;
  strong(inner: string): string;
  em(inner: string): string;
  del(inner: string): string;
  code(text: string): string;
  /** A fenced block of `text` (its lines, not escaped yet). */
  codeBlock(text: string): string;
  link(href: string, inner: string, plain: string): string;
  heading(inner: string): string;
  quote(inner: string): string;
}

const escapeHtml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const escapeSlack = escapeHtml;
/** A backtick run would end WhatsApp's and Slack's code spans early: a look-alike keeps the text. */
const noFence = (text: string) => text.replaceAll('`', 'ˋ');

const DIALECTS: Record<Platform, Dialect> = {
  telegram: {
    escape: escapeHtml,
    strong: (inner) => `<b>${inner}</b>`,
    em: (inner) => `<i>${inner}</i>`,
    del: (inner) => `<s>${inner}</s>`,
    code: (text) => `<code>${escapeHtml(text)}</code>`,
    codeBlock: (text) => `<pre>${escapeHtml(text)}</pre>`,
    link: (href, inner) => `<a href="${escapeHtml(href).replaceAll('"', '&quot;')}">${inner}</a>`,
    heading: (inner) => `<b>${inner}</b>`,
    quote: (inner) => `<blockquote>${inner}</blockquote>`,
  },
  whatsapp: {
    escape: (text) => text,
    strong: (inner) => `*${inner}*`,
    em: (inner) => `_${inner}_`,
    del: (inner) => `~${inner}~`,
    code: (text) => `\`\`\`${noFence(text)}\`\`\``,
    codeBlock: (text) => `\`\`\`${noFence(text)}\`\`\``,
    link: (href, _inner, plain) => (plain && plain !== href ? `${plain} (${href})` : href),
    heading: (inner) => `*${inner}*`,
    quote: (inner) => inner.split('\n').map((line) => `> ${line}`).join('\n'),
  },
  slack: {
    escape: escapeSlack,
    strong: (inner) => `*${inner}*`,
    em: (inner) => `_${inner}_`,
    del: (inner) => `~${inner}~`,
    code: (text) => `\`${escapeSlack(noFence(text))}\``,
    codeBlock: (text) => `\`\`\`${escapeSlack(noFence(text))}\`\`\``,
    // `|` and `>` end a link's parts: the text keeps them escaped or as a look-alike.
    link: (href, _inner, plain) => `<${escapeSlack(href).replaceAll('|', '%7C')}|${escapeSlack(plain || href).replaceAll('|', '¦')}>`,
    heading: (inner) => `*${inner}*`,
    quote: (inner) => inner.split('\n').map((line) => `&gt; ${line}`).join('\n'),
  },
};

/** One block of the reply: the separator before it (when it follows another) and its pieces. */
interface Block {
  sep: string;
  /** Rendered pieces, each whole markup, in order; concatenated they are the block. */
  pieces: string[];
}

/**
 * The reply as the platform's messages: Markdown rendered, citations linked below it, every
 * message at most `MESSAGE_LIMITS[platform]` characters.
 */
export function formatReply(markdown: string, platform: Platform, citations: CitationLink[] = []): string[] {
  const dialect = DIALECTS[platform];
  const limit = MESSAGE_LIMITS[platform];
  const blocks = blocksOf(new Lexer().lex(markdown), dialect, limit, '\n\n');
  const sources = citations.filter((c) => c.title || c.url);
  if (sources.length) {
    blocks.push({ sep: '\n\n', pieces: [dialect.strong(dialect.escape('Sources'))] });
    sources.forEach((c, i) => {
      const title = c.title || c.url || '';
      const label = `${i + 1}. ${title}`;
      const line = c.url ? `${dialect.escape(`${i + 1}. `)}${dialect.link(c.url, dialect.escape(title), title)}` : dialect.escape(label);
      blocks.push({ sep: '\n', pieces: line.length <= limit ? [line] : splitText(label, dialect.escape, limit) });
    });
  }
  return pack(blocks, limit);
}

function blocksOf(tokens: Token[], d: Dialect, limit: number, firstSep: string): Block[] {
  const blocks: Block[] = [];
  for (const token of tokens) {
    const sep = blocks.length ? '\n\n' : firstSep;
    switch (token.type) {
      case 'space':
      case 'hr':
        break;
      case 'code':
        // An empty block has nothing to show (Telegram refuses an empty <pre>); its info string
        // (a language label) has no place on any of these platforms.
        if ((token as Tokens.Code).text.trim()) blocks.push({ sep, pieces: codePieces((token as Tokens.Code).text, d, limit) });
        break;
      case 'heading':
        // An empty heading ("# ") has no text: an empty <b></b> would be a message of nothing.
        if ((token as Tokens.Heading).text.trim()) blocks.push({ sep, pieces: inlinePieces((token as Tokens.Heading).tokens, d, limit, d.heading) });
        break;
      case 'blockquote': {
        // Each quoted block is quoted on its own, so a split between them keeps both quoted.
        for (const inner of blocksOf((token as Tokens.Blockquote).tokens, d, limit, sep)) {
          const whole = d.quote(inner.pieces.join(''));
          const quoted = whole.length <= limit ? [whole] : inner.pieces.map((piece) => d.quote(piece));
          blocks.push({ sep: inner.sep, pieces: quoted.every((piece) => piece.length <= limit) ? quoted : inner.pieces });
        }
        break;
      }
      case 'list': {
        const list = token as Tokens.List;
        list.items.forEach((item, i) => {
          const marker = d.escape(list.ordered ? `${Number(list.start || 1) + i}. ` : '• ');
          const inner = blocksOf(item.tokens, d, limit, '');
          // An empty item ("1. ") keeps its marker: it is the text the reply has there.
          if (inner.length === 0) inner.push({ sep: '', pieces: [] });
          inner.forEach((block, j) => {
            const pieces = j === 0 ? [marker, ...block.pieces] : block.pieces;
            blocks.push({ sep: i === 0 && j === 0 ? sep : j === 0 ? '\n' : block.sep, pieces });
          });
        });
        break;
      }
      case 'table':
        blocks.push({ sep, pieces: splitText((token as Tokens.Table).raw.trim(), d.escape, limit) });
        break;
      default: {
        const withTokens = token as Tokens.Paragraph | Tokens.Text;
        const pieces = withTokens.tokens ? inlinePieces(withTokens.tokens, d, limit) : splitText((token as Tokens.Generic).text ?? token.raw, d.escape, limit);
        blocks.push({ sep, pieces });
      }
    }
  }
  return blocks;
}

/** Inline tokens as pieces; `wrap` (a heading's style) applies to each piece on its own. */
function inlinePieces(tokens: Token[] | undefined, d: Dialect, limit: number, wrap?: (inner: string) => string): string[] {
  const pieces: string[] = [];
  for (const token of tokens ?? []) pieces.push(...inlinePiecesOf(token, d, limit));
  if (!wrap) return pieces;
  const whole = wrap(pieces.join(''));
  if (whole.length <= limit) return [whole];
  return splitText(plainOf(tokens ?? []), d.escape, limit - wrap('').length).map(wrap);
}

function inlinePiecesOf(token: Token, d: Dialect, limit: number): string[] {
  const styled = (wrap: (inner: string) => string, inner: Token[]) => {
    const rendered = wrap(inlinePieces(inner, d, limit).join(''));
    if (rendered.length <= limit) return [rendered];
    // Too long to stay one span: its text, styled piece by piece.
    return splitText(plainOf(inner), d.escape, limit - wrap('').length).map(wrap);
  };
  switch (token.type) {
    case 'strong':
      return styled(d.strong, (token as Tokens.Strong).tokens);
    case 'em':
      return styled(d.em, (token as Tokens.Em).tokens);
    case 'del':
      return styled(d.del, (token as Tokens.Del).tokens);
    case 'codespan': {
      const text = (token as Tokens.Codespan).text;
      return splitText(text, d.code, limit);
    }
    case 'link': {
      const link = token as Tokens.Link;
      const plain = plainOf(link.tokens);
      const rendered = d.link(link.href, inlinePieces(link.tokens, d, limit).join(''), plain);
      return rendered.length <= limit ? [rendered] : splitText(`${plain} (${link.href})`, d.escape, limit);
    }
    case 'image': {
      const image = token as Tokens.Image;
      return inlinePiecesOf({ type: 'link', raw: image.raw, href: image.href, title: image.title, text: image.text || image.href, tokens: [{ type: 'text', raw: image.text || image.href, text: image.text || image.href }] } as Tokens.Link, d, limit);
    }
    case 'br':
      return ['\n'];
    case 'text': {
      const text = token as Tokens.Text;
      if (text.tokens?.length) return inlinePieces(text.tokens, d, limit);
      return splitText(text.text, d.escape, limit);
    }
    default:
      // escape (`\*`), html, anything else: its text as text.
      return splitText((token as Tokens.Generic).text ?? token.raw, d.escape, limit);
  }
}

/** The text of inline tokens without their markup. */
function plainOf(tokens: Token[]): string {
  return tokens.map((token) => ('tokens' in token && Array.isArray(token.tokens) && token.tokens.length ? plainOf(token.tokens as Token[]) : ((token as Tokens.Generic).text ?? ''))).join('');
}

/**
 * Text as pieces whose escaped form fits `limit`: one per sentence, a long sentence by words, a
 * long word by characters (never inside a surrogate pair). Each piece is escaped on its own.
 */
export function splitText(text: string, escape: (text: string) => string, limit: number): string[] {
  const out: string[] = [];
  for (const sentence of text.split(/(?<=[.!?…])(?=\s)/u)) {
    if (escape(sentence).length <= limit) {
      out.push(escape(sentence));
      continue;
    }
    for (const word of sentence.split(/(?=\s)/u)) {
      if (escape(word).length <= limit) {
        out.push(escape(word));
        continue;
      }
      // Escaping is per character inside a fixed wrapper (a code span's), so a piece's escaped
      // length is counted as it grows: escaping the whole piece at every character is quadratic.
      const wrapper = escape('').length;
      let piece = '';
      let size = wrapper;
      for (const char of word) {
        const grows = escape(char).length - wrapper;
        if (piece && size + grows > limit) {
          out.push(escape(piece));
          piece = '';
          size = wrapper;
        }
        piece += char;
        size += grows;
      }
      if (piece) out.push(escape(piece));
    }
  }
  return out.filter((piece) => piece !== '');
}

/** A code block's lines in as few fenced pieces as fit. */
function codePieces(text: string, d: Dialect, limit: number): string[] {
  if (d.codeBlock(text).length <= limit) return [d.codeBlock(text)];
  // The fence's escaping is per character, so a group's length is the fence's plus its lines'
  // (counted once each, not by rendering the growing group at every line).
  const fence = d.codeBlock('').length;
  const size = (line: string) => d.codeBlock(line).length - fence;
  const newline = size('\n');
  const pieces: string[] = [];
  let group: string | undefined;
  let groupSize = 0;
  const close = () => {
    if (group !== undefined) pieces.push(d.codeBlock(group));
    group = undefined;
  };
  for (const line of text.split('\n')) {
    const lineSize = size(line);
    if (fence + lineSize > limit) {
      close();
      pieces.push(...splitText(line, d.codeBlock, limit)); // a line longer than a message: fenced piece by piece
      continue;
    }
    if (group !== undefined && fence + groupSize + newline + lineSize <= limit) {
      group = `${group}\n${line}`;
      groupSize += newline + lineSize;
    } else {
      close();
      group = line;
      groupSize = lineSize;
    }
  }
  close();
  return pieces;
}

/** Blocks into messages: whole blocks while they fit, else a block's pieces across messages. */
function pack(blocks: Block[], limit: number): string[] {
  const messages: string[] = [];
  let current = '';
  const flush = () => {
    const message = current.trim();
    if (message) messages.push(message);
    current = '';
  };
  for (const block of blocks) {
    const whole = block.pieces.join('');
    if (!whole.trim()) continue;
    const joined = current ? current + block.sep + whole : whole;
    if (joined.trim().length <= limit) {
      current = joined;
      continue;
    }
    if (whole.trim().length <= limit) {
      flush();
      current = whole;
      continue;
    }
    if (current) current += block.sep;
    for (const piece of block.pieces) {
      if ((current + piece).trim().length > limit) flush();
      current += piece;
    }
  }
  flush();
  return messages.length ? messages : [];
}
