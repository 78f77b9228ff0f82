// The bot's Markdown in each platform's markup (channels/format.ts), by properties over generated
// replies: no message is over the platform's limit, no escape, tag or link is cut, no text is lost.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatReply, MESSAGE_LIMITS, type Platform } from '../src/channels/format.ts';

const PLATFORMS: Platform[] = ['telegram', 'whatsapp', 'slack'];

/** Markdown-ish text: words, Markdown's and the platforms' special characters, line breaks, long runs. */
const piece = fc.oneof(
  fc.constantFrom('**', '*', '_', '__', '~~', '`', '```', '\n', '\n\n', '# ', '> ', '- ', '1. ', '[', '](', ')', 'https://ex.com/a?b=1&c=2', '&', '<', '>', '"', '|', '{', '}', '.', '!', '=', '+', '#', '\\', ' ', '. ', '😀'),
  fc.stringMatching(/^[A-Za-z0-9]{1,12}$/),
  fc.stringMatching(/^[A-Za-z0-9]{1,12}$/).map((word) => `${word} `.repeat(80)),
  fc.stringMatching(/^[A-Za-z0-9]{1,3}$/).map((word) => word.repeat(2000)),
);
const markdown = fc.array(piece, { maxLength: 120 }).map((pieces) => pieces.join(''));
const citations = fc.array(fc.record({ title: fc.string({ maxLength: 60 }), url: fc.option(fc.constant('https://docs.example.com/a?x=1&y=<2>'), { nil: null }) }), { maxLength: 3 });

const alnum = (text: string) => text.replace(/[^A-Za-z0-9]/g, '');
/**
 * The reply's text without fence info strings: what follows a run of three backticks (up to a
 * backtick) or tildes on its line may be a code block's language label, which no platform shows
 * (over-approximated: any such run, at a line's start or not).
 */
const withoutInfoStrings = (text: string) => text.replace(/(`{3,})[^`\n]*|(~{3,})[^\n]*/g, '$1$2');
/** True when `needle`'s characters appear in `haystack` in order (markup may sit between them). */
function inOrder(needle: string, haystack: string): boolean {
  let at = 0;
  for (const char of haystack) if (char === needle[at]) at++;
  return at === needle.length;
}

const TELEGRAM_TAGS = /^<(\/?)(b|i|s|code|pre|blockquote|a)(?: href="[^"<>]*")?>/;

/** Telegram HTML: only its tags, balanced within the message; `&` only in entities; no stray `<` or `>`. */
function assertTelegramHtml(message: string): void {
  const open: string[] = [];
  for (let i = 0; i < message.length; i++) {
    const char = message[i];
    if (char === '<') {
      const tag = TELEGRAM_TAGS.exec(message.slice(i));
      assert.ok(tag, `a stray < at ${i}: ${message.slice(i, i + 30)}`);
      if (tag[1]) assert.equal(open.pop(), tag[2], `</${tag[2]}> closes another tag`);
      else open.push(tag[2]!);
      i += tag[0].length - 1;
    } else if (char === '>') assert.fail(`a stray > at ${i}`);
    else if (char === '&') assert.match(message.slice(i, i + 6), /^&(amp|lt|gt|quot);/, 'a broken entity');
  }
  assert.deepEqual(open, [], 'a tag left open');
}

/** Slack mrkdwn: `&` only in entities, every `<` a whole `<url|text>`, no stray `>`. */
function assertSlackMrkdwn(message: string): void {
  for (let i = 0; i < message.length; i++) {
    const char = message[i];
    if (char === '<') {
      const link = /^<[^<>|\s]+\|[^<>|]*>/.exec(message.slice(i));
      assert.ok(link, `a stray or cut link at ${i}: ${message.slice(i, i + 40)}`);
      i += link[0].length - 1;
    } else if (char === '>') assert.fail(`a stray > at ${i}`);
    else if (char === '&') assert.match(message.slice(i, i + 5), /^&(amp|lt|gt);/, 'a broken entity');
  }
}

describe('per-platform formatting', () => {
  for (const platform of PLATFORMS) {
    it(`${platform}: no message over ${MESSAGE_LIMITS[platform]} characters, no markup cut, no text lost`, () => {
      fc.assert(
        fc.property(markdown, citations, (text, sources) => {
          const messages = formatReply(text, platform, sources);
          for (const message of messages) {
            assert.ok(message.length <= MESSAGE_LIMITS[platform], `${message.length} characters`);
            assert.ok(message.trim().length > 0);
            if (platform === 'telegram') assertTelegramHtml(message);
            if (platform === 'slack') assertSlackMrkdwn(message);
          }
          assert.ok(inOrder(alnum(withoutInfoStrings(text)), alnum(messages.join(''))), 'text was lost');
        }),
        { numRuns: 150 },
      );
    });
  }

  it('renders the Markdown of a reply in each markup, citations as links', () => {
    const reply = 'Plans **start** at _5 €_ & [more](https://ex.com/p?a=1&b=2) `x<y`.';
    const sources = [{ title: 'Pricing', url: 'https://ex.com/pricing' }];
    assert.deepEqual(formatReply(reply, 'telegram', sources), [
      'Plans <b>start</b> at <i>5 €</i> &amp; <a href="https://ex.com/p?a=1&amp;b=2">more</a> <code>x&lt;y</code>.\n\n<b>Sources</b>\n1. <a href="https://ex.com/pricing">Pricing</a>',
    ]);
    assert.deepEqual(formatReply(reply, 'whatsapp', sources), ['Plans *start* at _5 €_ & more (https://ex.com/p?a=1&b=2) ```x<y```.\n\n*Sources*\n1. Pricing (https://ex.com/pricing)']);
    assert.deepEqual(formatReply(reply, 'slack', sources), ['Plans *start* at _5 €_ &amp; <https://ex.com/p?a=1&amp;b=2|more> `x&lt;y`.\n\n*Sources*\n1. <https://ex.com/pricing|Pricing>']);
  });

  it('splits a long reply between paragraphs, then between sentences', () => {
    const paragraph = 'This sentence is about forty characters. '.repeat(40).trim(); // ~1,640 characters
    const messages = formatReply([paragraph, paragraph, paragraph].join('\n\n'), 'telegram');
    assert.equal(messages.length, 2);
    assert.equal(messages[0], `${paragraph}\n\n${paragraph}`);
    const sentences = formatReply('Short one. '.repeat(1000), 'slack');
    assert.ok(sentences.length > 1);
    for (const message of sentences) assert.match(message, /^Short one\..*\.$/s);
  });
});
