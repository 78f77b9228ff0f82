// Knowledge imported from a web page, end to end: the real service imports a page
// of this dev server (its test service allows loopback imports), and the widget's answer from it
// links the page under the section's title (document title › headings).
import { expect } from '@open-wc/testing';
import type { AiChatWidget } from '../../src/element.js';
import { $$, baseUrl, clearWidgetStorage, mount, newApiKey } from './helpers.js';

const PAGE = `${location.origin}/test/dashboard/fixtures/help-center.html`;

async function importPage(apiKey: string): Promise<void> {
  const response = await fetch(`${baseUrl}/knowledge/imports?wait=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ kind: 'url', url: PAGE, max_pages: 1 }),
  });
  const body = await response.json();
  expect(response.status).to.equal(200);
  expect(body.data.job.status, JSON.stringify(body.data.job)).to.equal('succeeded');
}

describe('sources of imported pages', () => {
  beforeEach(clearWidgetStorage);

  it('links an answer from an imported page to that page, titled by its headings', async () => {
    const apiKey = await newApiKey();
    await importPage(apiKey);
    const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey });
    await ready;
    const reply = await (el as AiChatWidget).send('How often should I descale the kettle with citric acid?');
    expect(reply!.citations![0]).to.include({ title: 'Help center › Descaling', url: PAGE });
    await el.updateComplete;
    const link = $$(el, '[part~="citations"] li a')[0] as HTMLAnchorElement;
    expect(link.getAttribute('href')).to.equal(PAGE);
    expect(link.textContent).to.include('Help center › Descaling');
    expect(link.getAttribute('rel')).to.equal('noopener noreferrer');
  });
});
