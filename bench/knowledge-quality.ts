/**
 * `--only=knowledge-quality`: whether knowledge answers know when they do not know. A bot whose
 * knowledge is a banking FAQ (bench/lib/banking-questions.ts) is asked in-domain paraphrases and
 * out-of-domain questions through the public API (`POST /v1/bots/{id}/messages`) on embedded
 * PGlite. An in-domain question counts when the reply cites its entry first and is no fallback; an
 * out-of-domain one when the reply is the fallback. The same questions go to a second bot with the
 * gate off (`knowledge.min_relevance: 0`): the lexical ranking as it answered before the gate.
 * The rows report the test half; the dev half (the relevance was calibrated on it) is in the details.
 *
 *   node --import tsx bench/run.ts --only=knowledge-quality
 */
import { startServer } from '../server/src/index.ts';
import { contentOf, FAQ, questionSets, type QuestionSet } from './lib/banking-questions.ts';
import type { Row } from './lib/table.ts';

export interface QualityScores {
  /** In-domain questions answered from their entry (first citation, not a fallback), percent. */
  rightEntry: number;
  /** Out-of-domain questions answered with the fallback, percent. */
  outOfDomainFallback: number;
  /** Knowledge replies whose text holds a sentence ending in "?" (the FAQ's question quoted back). */
  quotedQuestions: number;
  inDomain: number;
  outOfDomain: number;
}

export interface KnowledgeQualityResults {
  gate: { dev: QualityScores; test: QualityScores };
  lexical: { dev: QualityScores; test: QualityScores };
}

interface BotReply {
  fallback: boolean;
  message: { content: string; source: string; citations?: { entry_id: string }[] };
}

export async function measureKnowledgeQuality(log: (message: string) => void): Promise<KnowledgeQualityResults> {
  const server = await startServer({ dataDir: 'memory://', seed: false, logLevel: 'silent', port: 0 });
  try {
    const { apiKey } = await server.service.createAccount({ rateLimit: { points: 1_000_000, durationSeconds: 60 } });
    const post = async <T>(path: string, body: unknown): Promise<T> => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { success: boolean; data: T };
      if (!json.success) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
      return json.data;
    };
    const ids = new Map<string, string>();
    for (const entry of FAQ) ids.set(entry.key, (await post<{ id: string }>('/v1/knowledge', { title: entry.title, content: contentOf(entry) })).id);
    const bot = async (name: string, knowledge: object) => (await post<{ id: string }>('/v1/bots', { name, knowledge })).id;
    const gated = await bot('Bank (relevance gate)', { tags: [] });
    const lexical = await bot('Bank (gate off)', { tags: [], min_relevance: 0 });

    let asked = 0;
    const score = async (botId: string, set: QuestionSet): Promise<QualityScores> => {
      // A visitor per question: each is the first turn of its own conversation.
      const ask = (question: string) => post<BotReply>(`/v1/bots/${botId}/messages`, { message: question, user_id: `q${++asked}` });
      let right = 0;
      let quoted = 0;
      for (const [question, key] of set.inDomain) {
        const reply = await ask(question);
        if (!reply.fallback && reply.message.citations?.[0]?.entry_id === ids.get(key)) right++;
        if (reply.message.source === 'knowledge' && /\?(\s|$)/.test(reply.message.content)) quoted++;
      }
      let fallback = 0;
      for (const question of set.outOfDomain) {
        const reply = await ask(question);
        if (reply.fallback) fallback++;
        else if (reply.message.source === 'knowledge' && /\?(\s|$)/.test(reply.message.content)) quoted++;
      }
      return {
        rightEntry: percent(right, set.inDomain.length),
        outOfDomainFallback: percent(fallback, set.outOfDomain.length),
        quotedQuestions: quoted,
        inDomain: set.inDomain.length,
        outOfDomain: set.outOfDomain.length,
      };
    };
    const sets = questionSets();
    const results = {} as KnowledgeQualityResults;
    for (const [name, botId] of [['gate', gated], ['lexical', lexical]] as const) {
      log(`knowledge quality: ${name}`);
      results[name] = { dev: await score(botId, sets.dev), test: await score(botId, sets.test) };
    }
    return results;
  } finally {
    await server.close();
  }
}

const percent = (part: number, whole: number) => Math.round((1000 * part) / whole) / 10;

export function knowledgeQualityRows({ gate, lexical }: KnowledgeQualityResults): Row[] {
  const sizes = `${gate.test.inDomain} in-domain, ${gate.test.outOfDomain} out-of-domain test questions`;
  return [
    { id: 'knowledge-quality.right-entry', label: 'banking FAQ: in-domain answered from the right entry', unit: '%', ours: gate.test.rightEntry,
      deepChat: null, goal: '≥ 75 %', met: gate.test.rightEntry >= 75, note: sizes },
    { id: 'knowledge-quality.right-entry.lexical', label: '  lexical baseline (gate off)', unit: '%', ours: lexical.test.rightEntry, deepChat: null },
    { id: 'knowledge-quality.fallback', label: 'banking FAQ: out-of-domain answered with the fallback', unit: '%',
      ours: gate.test.outOfDomainFallback, deepChat: null, goal: '≥ 90 %', met: gate.test.outOfDomainFallback >= 90 },
    { id: 'knowledge-quality.fallback.lexical', label: '  lexical baseline (gate off)', unit: '%', ours: lexical.test.outOfDomainFallback, deepChat: null },
    { id: 'knowledge-quality.quoted', label: 'banking FAQ: knowledge answers quoting a question', unit: 'count', ours: gate.test.quotedQuestions,
      deepChat: null, goal: '0', met: gate.test.quotedQuestions === 0 },
  ];
}
