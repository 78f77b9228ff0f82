// The intent classifier through the real service: calibrated abstention, retraining after an
// update and after an upgrade, every bot language, the quality report, determinism, the cache bound.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { classify } from '../src/nlu/classifier/model.ts';
import { trainClassifier } from '../src/nlu/classifier/train.ts';
import { createNluEngine } from '../src/nlu/index.ts';
import { json } from '../src/db/json.ts';
import { startTestService, type TestClient } from './support/core.ts';

/** A model as nlp.js stored it (the format the engine read before). */
const NLPJS_MODEL = { format: 'nlpjs-4', language: 'en', nlp: {} };

let api: TestClient;
before(async () => {
  api = await startTestService();
});
after(() => api.service.close());

/** A help-desk bot of six topics, no threshold of its own: the calibrated one applies. */
const helpDesk = {
  intents: [
    { name: 'reset_password', examples: ['I forgot my password', 'how do I reset my password', 'reset password please', 'cannot log in, need a new password', 'change my password', 'password reset link'], responses: ['Use the reset link on the sign-in page.'] },
    { name: 'refund', examples: ['I want a refund', 'can I get my money back', 'refund my order', 'how do refunds work', 'return and refund policy', 'request a refund for my purchase'], responses: ['Refunds take 5 days.'] },
    { name: 'shipping', examples: ['when will my package arrive', 'how long does shipping take', 'track my delivery', 'shipping costs', 'where is my parcel', 'delivery time to Canada'], responses: ['Shipping takes 3 days.'] },
    { name: 'opening_hours', examples: ['what are your opening hours', 'when are you open', 'are you open on sunday', 'what time do you close', 'store hours', 'opening times this weekend'], responses: ['We are open 9 to 5.'] },
    { name: 'cancel_subscription', examples: ['cancel my subscription', 'how do I unsubscribe', 'stop my monthly plan', 'end my membership', 'I want to cancel the plan', 'terminate subscription'], responses: ['You can cancel in settings.'] },
    { name: 'talk_to_human', examples: ['talk to a human', 'can I speak to an agent', 'connect me with support staff', 'I need a real person', 'customer service representative', 'call me back please'], responses: ['Connecting you.'] },
  ],
};

async function createBot(body: Record<string, unknown>) {
  const { res, body: envelope } = await api.json('/v1/bots', { method: 'POST', body });
  assert.equal(res.status, 201, JSON.stringify(envelope));
  return envelope.data as { id: string; status: string };
}

async function ask(botId: string, message: string) {
  const { res, body } = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message, user_id: 'quality' } });
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data as { intent: string | null; confidence: number | null; fallback: boolean; message: { content: string } };
}

describe('calibrated answers', () => {
  let botId: string;
  before(async () => {
    botId = (await createBot({ name: 'Help desk', training: helpDesk })).id;
  });

  it('answers paraphrases of its examples with their intent', async () => {
    const paraphrases: [string, string][] = [
      ['i forgot the password for my account', 'reset_password'],
      ['please refund my money', 'refund'],
      ['how long until my parcel arrives', 'shipping'],
      ['are you open this sunday', 'opening_hours'],
      ['please cancel my monthly subscription', 'cancel_subscription'],
      ['i would like to speak to a real person', 'talk_to_human'],
    ];
    for (const [message, intent] of paraphrases) {
      const reply = await ask(botId, message);
      assert.equal(reply.intent, intent, message);
      assert.equal(reply.fallback, false, message);
    }
  });

  it('gives the fallback to unrelated questions, below its calibrated threshold', async () => {
    const { threshold } = (await api.json(`/v1/bots/${botId}/quality`)).body.data;
    assert.ok(threshold > 0 && threshold < 1, String(threshold));
    for (const message of ['what is the capital of mongolia', 'play some jazz music', 'how tall is mount everest']) {
      const reply = await ask(botId, message);
      assert.equal(reply.fallback, true, message);
      assert.equal(reply.intent, null, message);
      assert.ok((reply.confidence ?? 0) < threshold, `${message}: ${reply.confidence}`);
    }
  });

  it("follows the owner's threshold over the calibrated one", async () => {
    const strict = await createBot({ name: 'Strict', training: { ...helpDesk, fallback: { threshold: 1 } } });
    const reply = await ask(strict.id, 'how do I reset my password');
    assert.equal(reply.fallback, true);
    assert.ok((reply.confidence ?? 0) > 0.3, String(reply.confidence));
  });

  it('answers with the new intents after an update retrains it', async () => {
    const bot = await createBot({ name: 'Changing', training: helpDesk });
    assert.equal((await ask(bot.id, 'do you sell gift cards')).fallback, true);
    const training = structuredClone(helpDesk);
    training.intents.push({ name: 'gift_cards', examples: ['do you sell gift cards', 'buy a gift card', 'gift voucher', 'can I give a gift card'], responses: ['Yes, in the shop.'] });
    const { res } = await api.json(`/v1/bots/${bot.id}`, { method: 'PUT', body: { training } });
    assert.equal(res.status, 200);
    const reply = await ask(bot.id, 'do you sell gift cards?');
    assert.equal(reply.intent, 'gift_cards');
    const quality = (await api.json(`/v1/bots/${bot.id}/quality`)).body.data;
    assert.ok(quality.intents.some((i: { intent: string }) => i.intent === 'gift_cards'));
  });
});

describe('the quality report', () => {
  it('gives accuracy per intent, confused pairs and a mislabelled example', async () => {
    const training = structuredClone(helpDesk);
    // A shipping question filed under refunds.
    training.intents[1]!.examples.push('how long does delivery take to my country');
    const bot = await createBot({ name: 'Quality', training });
    const { res, body } = await api.json(`/v1/bots/${bot.id}/quality`);
    assert.equal(res.status, 200);
    const quality = body.data;
    assert.equal(quality.folds, 3);
    assert.equal(quality.examples, 37);
    assert.equal(quality.intents.length, 6);
    assert.ok(quality.intents.every((i: { accuracy: number }) => i.accuracy >= 0 && i.accuracy <= 1));
    assert.ok(quality.confused_pairs.some((p: { intent: string; predicted: string }) => p.intent === 'refund' && p.predicted === 'shipping'));
    assert.ok(
      quality.suspect_examples.some((s: { example: string; predicted: string }) => s.example === 'how long does delivery take to my country' && s.predicted === 'shipping'),
      JSON.stringify(quality.suspect_examples),
    );
  });

  it('answers 409 for a bot without a model and 404 for an unknown bot', async () => {
    const bot = await createBot({ name: 'Untrained' });
    const untrained = await api.json(`/v1/bots/${bot.id}/quality`);
    assert.equal(untrained.res.status, 409);
    assert.equal(untrained.body.error.code, 'conflict');
    assert.equal((await api.json('/v1/bots/bot_000000000000000000000000/quality')).res.status, 404);
  });

  it('is served for agents too', async () => {
    const examples = helpDesk.intents.flatMap((i) => i.examples.map((input) => ({ input, output: i.responses[0]! })));
    const agent = (await api.json('/v1/agents', { method: 'POST', body: { name: 'Desk agent', examples } })).body.data;
    assert.equal((await api.json(`/v1/agents/${agent.id}/quality`)).res.status, 409);
    const trained = await api.json(`/v1/agents/${agent.id}/train?wait=true`, { method: 'POST', body: { holdout: 0 } });
    assert.equal(trained.body.data.status, 'succeeded', JSON.stringify(trained.body));
    const quality = (await api.json(`/v1/agents/${agent.id}/quality`)).body.data;
    assert.equal(quality.examples, 36);
  });
});

describe('models trained before an upgrade', () => {
  it('answer with the fallback, then are retrained and answer again', async () => {
    const bot = await createBot({ name: 'Old', training: helpDesk });
    const db = api.service.deps.db;
    await db.updateTable('bots').set({ nlu_model: json(NLPJS_MODEL), trained_at: new Date() }).where('id', '=', bot.id).execute();
    const before = await ask(bot.id, 'how do I reset my password');
    assert.equal(before.fallback, true);
    assert.equal((await api.json(`/v1/bots/${bot.id}/quality`)).res.status, 409);
    assert.ok((await api.service.deps.bots.retrainOutdated()) >= 1);
    const afterUpgrade = await ask(bot.id, 'how do I reset my password');
    assert.equal(afterUpgrade.intent, 'reset_password');
    assert.equal((await api.json(`/v1/bots/${bot.id}/quality`)).res.status, 200);
  });
});

describe('agents trained before an upgrade', () => {
  it('are retrained by a training job', async () => {
    const examples = helpDesk.intents.flatMap((i) => i.examples.map((input) => ({ input, output: i.responses[0]! })));
    const agent = (await api.json('/v1/agents', { method: 'POST', body: { name: 'Old agent', examples } })).body.data;
    await api.json(`/v1/agents/${agent.id}/train?wait=true`, { method: 'POST', body: { holdout: 0 } });
    const db = api.service.deps.db;
    await db.updateTable('agents').set({ nlu_model: json(NLPJS_MODEL) }).where('id', '=', agent.id).execute();
    assert.equal((await api.json(`/v1/agents/${agent.id}/quality`)).res.status, 409);
    assert.ok((await api.service.deps.trainingJobs.retrainOutdated()) >= 1);
    assert.equal((await api.json(`/v1/agents/${agent.id}/quality`)).res.status, 200);
    const jobs = (await api.json(`/v1/agents/${agent.id}/jobs`)).body.data.items;
    assert.equal(jobs.length, 2);
  });
});

describe('every bot language', () => {
  const sets: Record<string, { intents: { name: string; examples: string[]; responses: string[] }[]; asks: [string, string][] }> = {
    de: {
      intents: [
        { name: 'oeffnungszeiten', examples: ['Wann habt ihr geöffnet?', 'Öffnungszeiten bitte', 'Habt ihr am Sonntag offen?', 'Bis wann ist der Laden geöffnet?'], responses: ['9 bis 17 Uhr.'] },
        { name: 'rueckerstattung', examples: ['Ich möchte mein Geld zurück', 'Rückerstattung beantragen', 'Wie funktioniert die Erstattung?', 'Bestellung zurückgeben und erstatten'], responses: ['5 Tage.'] },
        { name: 'versand', examples: ['Wann kommt mein Paket?', 'Wie lange dauert der Versand?', 'Lieferzeit nach Österreich', 'Sendungsverfolgung meiner Lieferung'], responses: ['3 Tage.'] },
      ],
      asks: [['Wie lange dauert die Lieferung meines Pakets?', 'versand'], ['Ist der Laden am Sonntag geöffnet?', 'oeffnungszeiten']],
    },
    fr: {
      intents: [
        { name: 'horaires', examples: ["Quels sont vos horaires d'ouverture ?", 'Vous êtes ouverts le dimanche ?', 'À quelle heure fermez-vous ?', 'horaires du magasin'], responses: ['De 9 h à 17 h.'] },
        { name: 'remboursement', examples: ['Je veux être remboursé', 'demande de remboursement', 'Comment fonctionne le remboursement ?', 'rembourser ma commande'], responses: ['5 jours.'] },
        { name: 'livraison', examples: ['Quand arrive mon colis ?', 'Combien de temps prend la livraison ?', 'délai de livraison en Belgique', 'suivre ma livraison'], responses: ['3 jours.'] },
      ],
      asks: [['Combien de temps pour livrer mon colis ?', 'livraison'], ['Vous fermez à quelle heure le dimanche ?', 'horaires']],
    },
    es: {
      intents: [
        { name: 'horario', examples: ['¿Cuál es su horario?', '¿Abren los domingos?', '¿A qué hora cierran?', 'horario de la tienda'], responses: ['De 9 a 17.'] },
        { name: 'reembolso', examples: ['Quiero un reembolso', 'devolver mi dinero', '¿Cómo funcionan los reembolsos?', 'reembolsar mi pedido'], responses: ['5 días.'] },
        { name: 'envio', examples: ['¿Cuándo llega mi paquete?', '¿Cuánto tarda el envío?', 'tiempo de envío a México', 'rastrear mi envío'], responses: ['3 días.'] },
      ],
      asks: [['¿Cuánto tarda en llegar el paquete?', 'envio'], ['¿Quiero el reembolso de mi pedido?', 'reembolso']],
    },
    en: { intents: helpDesk.intents.slice(0, 3), asks: [['my parcel has not arrived', 'shipping']] },
  };

  for (const [language, set] of Object.entries(sets)) {
    it(`answers in ${language}`, async () => {
      const bot = await createBot({ name: `Bot ${language}`, language, training: { intents: set.intents } });
      assert.equal(bot.status, 'ready');
      for (const [message, intent] of set.asks) assert.equal((await ask(bot.id, message)).intent, intent, message);
    });
  }

  // Bots accept en, de, fr and es; the classifier itself needs no spaces and no stemmer.
  it('classifies Japanese and Arabic by character n-grams', () => {
    const cases: Record<string, [string, string[]][]> = {
      ja: [
        ['shipping', ['荷物はいつ届きますか', '配送にどのくらいかかりますか', '配達状況を確認したい', '送料はいくらですか']],
        ['refund', ['返金してください', '返金の方法を教えて', 'お金を返してほしい', '注文を返品して返金したい']],
        ['hours', ['営業時間は何時ですか', '日曜日は営業していますか', '何時に閉まりますか', '店の営業時間']],
      ],
      ar: [
        ['shipping', ['متى يصل الطرد', 'كم يستغرق الشحن', 'تتبع الشحنة', 'تكلفة الشحن']],
        ['refund', ['أريد استرداد أموالي', 'كيف أسترد المبلغ', 'طلب استرداد', 'استرداد ثمن الطلب']],
        ['hours', ['ما هي ساعات العمل', 'هل أنتم مفتوحون يوم الأحد', 'متى تغلقون', 'مواعيد المتجر']],
      ],
    };
    const asks: Record<string, [string, number][]> = {
      ja: [['荷物はいつ頃届きますか', 0], ['返金をお願いしたい', 1], ['土曜日の営業時間は', 2]],
      ar: [['متى سيصل الطرد الخاص بي', 0], ['أريد استرداد المبلغ', 1], ['ما هي مواعيد العمل', 2]],
    };
    for (const [language, intents] of Object.entries(cases)) {
      const examples = intents.flatMap(([, texts], intent) => texts.map((text) => ({ text, intent })));
      const { classifier } = trainClassifier(intents.map(([name]) => name), examples);
      for (const [text, intent] of asks[language]!) assert.equal(classify(classifier, text).best, intent, `${language}: ${text}`);
    }
  });
});

/** The SQL of every statement the service runs while `run` does, from its one executor. */
async function statementsDuring(run: () => Promise<void>): Promise<string[]> {
  const executor = api.service.deps.db.getExecutor();
  const execute = executor.executeQuery.bind(executor);
  const statements: string[] = [];
  executor.executeQuery = (query) => {
    statements.push(query.sql);
    return execute(query);
  };
  try {
    await run();
  } finally {
    executor.executeQuery = execute;
  }
  return statements;
}

/** Statements reading a table's model or its training data (an example-free `training->'fallback'` excepted). */
const readsModelOrTraining = (table: string) => (statement: string) =>
  statement.includes(`from "${table}"`) && /^select \*|"nlu_model"|"model_training"|"training"(?!->)/.test(statement);

describe('the model read', () => {
  it('happens once per model version, not on every message', async () => {
    const bot = await createBot({ name: 'Cached', training: helpDesk });
    const bots = api.service.deps.bots;
    const read = bots.modelVersion.bind(bots);
    let reads = 0;
    bots.modelVersion = (accountId, botId, modelKey) => {
      if (botId === bot.id) reads++;
      return read(accountId, botId, modelKey);
    };
    try {
      for (const message of ['refund please', 'store hours', 'talk to a human']) await ask(bot.id, message);
    } finally {
      bots.modelVersion = read;
    }
    assert.equal(reads, 1);
  });

  it('reads the training data (every example) once per model version too', async () => {
    const bot = await createBot({ name: 'Cached training', training: helpDesk });
    const statements = await statementsDuring(async () => {
      for (const message of ['refund please', 'store hours', 'talk to a human']) await ask(bot.id, message);
    });
    assert.equal(statements.filter(readsModelOrTraining('bots')).length, 1, statements.join('\n'));
  });

  it('reads an agent\'s model and its training once per model version', async () => {
    const { res, body } = await api.json('/v1/agents', {
      method: 'POST',
      body: { name: 'Cached agent', examples: [{ input: 'how much is the plan', output: 'Plans start at 20 dollars.' }], training: helpDesk },
    });
    assert.equal(res.status, 201, JSON.stringify(body));
    const agentId = body.data.id as string;
    const trained = await api.json(`/v1/agents/${agentId}/train?wait=true`, { method: 'POST', body: {} });
    assert.equal(trained.body.data.status, 'succeeded', JSON.stringify(trained.body));
    const replies: string[] = [];
    const statements = await statementsDuring(async () => {
      for (const content of ['refund please', 'store hours', 'talk to a human']) {
        const chat = await api.json('/v1/chat', { method: 'POST', body: { agent_id: agentId, messages: [{ role: 'user', content }] } });
        assert.equal(chat.res.status, 200, JSON.stringify(chat.body));
        replies.push(chat.body.data.message.content);
      }
    });
    assert.deepEqual(replies, ['Refunds take 5 days.', 'We are open 9 to 5.', 'Connecting you.']);
    assert.equal(statements.filter(readsModelOrTraining('agents')).length, 1, statements.join('\n'));
  });

  it('answers with new responses at once after an update, and keeps the cached ones otherwise', async () => {
    const bot = await createBot({ name: 'Updated', training: helpDesk });
    assert.equal((await ask(bot.id, 'refund please')).message.content, 'Refunds take 5 days.');
    const renamed = await api.json(`/v1/bots/${bot.id}`, { method: 'PUT', body: { name: 'Renamed' } });
    assert.equal(renamed.res.status, 200, JSON.stringify(renamed.body));
    assert.equal((await ask(bot.id, 'refund please')).message.content, 'Refunds take 5 days.');

    const intents = helpDesk.intents.map((i) => (i.name === 'refund' ? { ...i, responses: ['Refunds now take 2 days.'] } : i));
    const fallback = { responses: ['Please ask about refunds, shipping or opening hours.'] };
    const updated = await api.json(`/v1/bots/${bot.id}`, { method: 'PUT', body: { training: { intents, fallback } } });
    assert.equal(updated.res.status, 200, JSON.stringify(updated.body));
    assert.equal((await ask(bot.id, 'refund please')).message.content, 'Refunds now take 2 days.');
    assert.equal((await ask(bot.id, 'xylophone quantum marmalade')).message.content, fallback.responses[0]);
  });
});

describe('the engine', () => {
  it('trains the same model from the same data', async () => {
    const engine = createNluEngine();
    try {
      const first = await engine.train('en', helpDesk);
      const second = await engine.train('en', structuredClone(helpDesk));
      assert.equal(JSON.stringify(first.model), JSON.stringify(second.model));
    } finally {
      await engine.close();
    }
  });

  it('caches a version\'s answer data with its loaded model, counted in the byte bound and dropped by forget', async () => {
    const engine = createNluEngine();
    try {
      const { model } = await engine.train('en', helpDesk);
      await engine.parse(model, 'en', 'refund please', { cacheKey: 'owner:v1' });
      const modelOnly = engine.cache.bytes;
      let reads = 0;
      const read = async () => (reads++, { model, training: helpDesk });
      const first = await engine.parseVersion(read, 'refund please', 'owner:v1');
      const second = await engine.parseVersion(read, 'store hours', 'owner:v1');
      assert.equal(reads, 1);
      assert.deepEqual(first.answers.intents.find((i) => i.name === 'refund'), { name: 'refund', responses: ['Refunds take 5 days.'] });
      assert.equal(second.intent, 'opening_hours');
      assert.equal(engine.cache.size, 1);
      assert.ok(engine.cache.bytes > modelOnly, `${engine.cache.bytes} > ${modelOnly}`);
      assert.equal(engine.forget('owner'), 1);
      assert.equal(engine.cache.bytes, 0);
    } finally {
      await engine.close();
    }
  });

  it('keeps the loaded models within its byte bound, dropping the least recently used', async () => {
    const engine = createNluEngine({ cacheBytes: 200_000 });
    try {
      const { model } = await engine.train('en', helpDesk);
      for (let i = 0; i < 40; i++) await engine.parse(model, 'en', 'refund please', { cacheKey: `bot${i}:v1` });
      assert.ok(engine.cache.bytes <= 200_000, String(engine.cache.bytes));
      assert.ok(engine.cache.size > 1 && engine.cache.size < 40, String(engine.cache.size));
      // The newest is kept, the oldest went first.
      assert.equal(engine.forget('bot39'), 1);
      assert.equal(engine.forget('bot0'), 0);
    } finally {
      await engine.close();
    }
  });
});
