// The typed client's knowledge-import calls against the real service mounted at /v1.
import { expect } from '@open-wc/testing';
import { ApiError } from '../../src/client/index.js';
import { clientFor, rejectionOf } from './fixtures.js';

const file = (name: string, text: string) => ({ name, data: btoa(text) });

describe('knowledge imports', () => {
  it('creates, follows, lists, syncs and deletes an import', async () => {
    const { client } = await clientFor();
    const queued = await client.knowledge.createImport({ kind: 'files', files: [file('faq.md', '# FAQ\n\n## Hours\n\nOpen 9 to 5.')] });
    expect(queued.status).to.equal(202);
    let item = queued.data;
    while (item.job?.status === 'queued' || item.job?.status === 'running') item = (await client.knowledge.getImport(item.id)).data;
    expect(item.job?.status).to.equal('succeeded');
    expect(item.entries).to.equal(1);

    const hits = (await client.knowledge.search({ q: 'opening hours' })).data.items;
    expect(hits[0]).to.include({ title: 'FAQ › Hours', url: null });
    expect(hits[0]!.heading_path).to.deep.equal(['FAQ', 'Hours']);
    expect((await client.knowledge.listImports()).data.items.map((i) => i.id)).to.deep.equal([item.id]);

    const synced = await client.knowledge.syncImport(item.id, { files: [file('faq.md', '# FAQ\n\n## Hours\n\nOpen 8 to 5.')] }, { wait: true });
    expect(synced.status).to.equal(200);
    expect(synced.data.job?.progress.entries_updated).to.equal(1);

    expect((await client.knowledge.deleteImport(item.id)).data.deleted).to.equal(true);
    const gone = await rejectionOf(() => client.knowledge.getImport(item.id));
    expect((gone as ApiError).code).to.equal('resource_not_found');
    expect((await client.knowledge.list()).data.items).to.deep.equal([]);
  });

  it('answers refusals as ApiErrors with their codes', async () => {
    const { client } = await clientFor();
    const scheme = await rejectionOf(() => client.knowledge.createImport({ kind: 'url', url: 'ftp://example.com/' }));
    expect((scheme as ApiError).code).to.equal('validation_failed');
    expect((scheme as ApiError).param).to.equal('url');
    const format = await rejectionOf(() => client.knowledge.createImport({ kind: 'files', files: [file('tool.exe', 'MZ')] }));
    expect((format as ApiError).status).to.equal(415);
  });
});
