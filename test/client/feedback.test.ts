// The typed client's feedback calls and feedback report against the real service mounted at /v1.
import { expect } from '@open-wc/testing';
import { ApiError } from '../../src/client/index.js';
import { SUPPORT_BOT, clientFor, rejectionOf } from './fixtures.js';

describe('feedback', () => {
  it('gives, changes and takes back feedback on an answer, and reads the report', async () => {
    const { client } = await clientFor();
    const bot = (await client.bots.create(SUPPORT_BOT)).data;
    const reply = (await client.bots.sendMessage(bot.id, { message: 'hello', user_id: 'u-1' })).data;
    const given = await client.feedback.give(reply.message.id, { rating: 'down', reason: 'incomplete', comment: 'More, please.', user_id: 'u-1' });
    expect(given.data).to.include({ message_id: reply.message.id, rating: 'down', reason: 'incomplete', bot_id: bot.id });
    const changed = await client.feedback.give(reply.message.id, { rating: 'up', user_id: 'u-1' });
    expect(changed.data.reason).to.equal(null);

    const report = await client.analytics.feedback({ bot_id: bot.id, granularity: 'hour' });
    expect(report.data.totals).to.deep.equal({ up: 1, down: 0 });
    expect(report.data.owners).to.deep.equal([{ bot_id: bot.id, agent_id: null, up: 1, down: 0 }]);

    const removed = await client.feedback.delete(reply.message.id, { user_id: 'u-1' });
    expect(removed.data.deleted).to.equal(true);
    const again = await rejectionOf(() => client.feedback.delete(reply.message.id, { user_id: 'u-1' }));
    expect((again as ApiError).code).to.equal('resource_not_found');
    const question = await rejectionOf(() => client.feedback.give(reply.user_message.id, { rating: 'up', user_id: 'u-1' }));
    expect((question as ApiError).status).to.equal(404);
  });
});
