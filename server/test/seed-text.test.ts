// What the demo says about itself: its bot and knowledge never tell visitors to `npm install` a
// package that is not on the registry, and the demo pages' welcome offers only topics the bot knows.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { DEMO_BOT, DEMO_KNOWLEDGE } from '../src/seed.ts';

const seeded = JSON.stringify([DEMO_BOT, DEMO_KNOWLEDGE]).toLowerCase();

describe('demo seed text', () => {
  it('says how to install the package while it is not published', () => {
    assert.doesNotMatch(seeded, /npm install ai-chat-widget/);
    assert.match(seeded, /npm pack/);
  });

  for (const page of ['index.html', 'try-it.html']) {
    it(`demo/${page}: the welcome offers topics the demo bot knows`, async () => {
      const html = await readFile(new URL(`../../demo/${page}`, import.meta.url), 'utf8');
      const welcome = /Hi! I can help with ([^<"]*)/.exec(html)?.[1] ?? '';
      const topics = [...welcome.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]!);
      assert.ok(topics.length, `the welcome names its topics: ${welcome}`);
      for (const topic of topics) {
        const words = topic.toLowerCase().split(/\W+/).filter((w) => w.length >= 5);
        assert.ok(words.some((w) => seeded.includes(w.slice(0, 5))), `the bot knows about "${topic}"`);
      }
    });
  }
});
