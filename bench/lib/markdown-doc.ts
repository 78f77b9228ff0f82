/**
 * The streamed-markdown row's reply: a deterministic document of about `bytes` characters with
 * what a long LLM answer holds (headings, paragraphs with inline markup and links, bulleted and
 * numbered lists, fenced code blocks, and since the renderer has them: GFM tables,
 * blockquotes, nested task lists and rules), cut into deltas the size of a few tokens each.
 */

const WORDS = ('the widget streams each answer as it is generated so a reader sees the first words at once ' +
  'while the model keeps writing and the page must stay responsive to scrolling typing and clicks').split(' ');

function sentence(seed: number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(seed * 7 + i * 3) % WORDS.length]!);
  const text = out.join(' ');
  return text[0]!.toUpperCase() + text.slice(1) + '.';
}

function section(i: number): string {
  switch (i % 8) {
    case 0:
      return `## Part ${i}: ${sentence(i, 4).slice(0, -1)}`;
    case 1:
      return `${sentence(i, 18)} It has **bold words**, *emphasis*, \`inline code\` and [a link](https://example.com/docs/${i}). ` +
        `${sentence(i + 1, 22)} See https://example.com/page/${i} for more.\n${sentence(i + 2, 14)}`;
    case 2:
      return [1, 2, 3, 4, 5].map((n) => `- ${sentence(i + n, 8)} **${n}**`).join('\n');
    case 3:
      return '```ts\n' + [0, 1, 2, 3, 4, 5, 6, 7].map((n) => `const value${n} = compute(${i}, ${n}); // ${sentence(n, 5)}`).join('\n') + '\n```';
    case 4:
      return [1, 2, 3, 4].map((n) => `${n}. ${sentence(i * n, 10)} \`step ${n}\``).join('\n');
    case 5:
      return ['| Option | Default | Meaning |', '|:--|:-:|--:|', ...[1, 2, 3, 4, 5, 6].map((n) => `| \`opt${n}\` | ${n * i} | ${sentence(i + n, 6)} |`)].join('\n');
    case 6:
      return `> ${sentence(i, 12)}\n> **Note:** ${sentence(i + 3, 8)}\n\n---`;
    default:
      return [1, 2, 3].map((n) => `- [${n % 2 ? 'x' : ' '}] ${sentence(i + n, 6)}\n  - ${sentence(i * n, 5)}`).join('\n');
  }
}

/** The document, ending with `marker` (the page knows the reply is complete when it shows). */
export function markdownDocument(bytes: number, marker: string): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const part = section(i);
    parts.push(part);
    length += part.length + 2;
  }
  parts.push(`The end: ${marker}`);
  return parts.join('\n\n');
}

/** `text` in deltas of 1 to 40 characters (a fixed cycle), the way a model's tokens arrive. */
export function deltasOf(text: string): string[] {
  const deltas: string[] = [];
  for (let at = 0, i = 0; at < text.length; i++) {
    const size = 1 + ((i * 17) % 40);
    deltas.push(text.slice(at, at + size));
    at += size;
  }
  return deltas;
}
