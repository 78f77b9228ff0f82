/// <reference types="node" />
// The dashboard's bot form edits the knowledge scope's tags only: saving a bot keeps the
// `min_relevance` gate the owner set through the API instead of resetting it to the default.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Bot } from '../../src/client/index.js';
import { draftOf, requestOf } from '../../src/dashboard/pages/bot-draft.js';

const bot = (knowledge: Bot['knowledge']): Bot => ({
  id: 'bot_1', name: 'Bank', description: '', language: 'en', status: 'untrained', training: { intents: [] }, quick_replies: [],
  channels: [], knowledge, avatar_url: null, appearance: {},
  attachments: { enabled: false, types: ['image/png'], max_file_bytes: 1_048_576, max_files: 1 },
  created_at: '2026-11-27T00:00:00.000Z', updated_at: '2026-11-27T00:00:00.000Z', trained_at: null,
});

describe('bot form: knowledge scope', () => {
  it('keeps min_relevance through an edit of the tags', () => {
    const draft = { ...draftOf(bot({ tags: [], min_relevance: 0.7 })), knowledgeMode: 'tags' as const, knowledgeTags: 'faq' };
    assert.deepEqual(requestOf(draft).knowledge, { tags: ['faq'], min_relevance: 0.7 });
  });

  it('leaves it out when the bot has none, and with the scope switched off', () => {
    assert.deepEqual(requestOf(draftOf(bot({ tags: [] }))).knowledge, { tags: [] });
    assert.equal(requestOf({ ...draftOf(bot({ tags: [], min_relevance: 0.7 })), knowledgeMode: 'none' }).knowledge, null);
  });
});
