// The `api-key` attribute is for development: the widget warns once when a page that is not on the
// developer's own machine puts a secret key in it. Tests run on localhost, so the hostname rule is
// tested as a function, and the wiring by checking that a localhost page stays quiet.
import { expect } from '@open-wc/testing';
import { isLocalHostname } from '../../src/widget/connection/client-provider.js';
import { baseUrl, clearWidgetStorage, mount, newApiKey } from './helpers.js';

describe('api-key warning', () => {
  beforeEach(clearWidgetStorage);

  it('treats only the local machine as development', () => {
    for (const host of ['localhost', 'app.localhost', '127.0.0.1', '127.1.2.3', '127.255.255.255', '[::1]']) {
      expect(isLocalHostname(host), host).to.be.true;
    }
    // public names that merely look local must warn
    for (const host of ['example.com', '127.example.com', '127.0.0.1.nip.io', '1270.0.0.1', '127.0.0.256', 'localhost.example.com', '']) {
      expect(isLocalHostname(host), host).to.be.false;
    }
  });

  it('does not warn on a localhost page', async () => {
    expect(isLocalHostname(location.hostname), 'the test page runs locally').to.be.true;
    const warnings: unknown[][] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      const { el, ready } = await mount({ 'api-key': await newApiKey(), 'base-url': baseUrl, mode: 'inline' });
      await ready;
      await el.send('hello');
    } finally {
      console.warn = original;
    }
    expect(warnings.filter((w) => String(w[0]).includes('api-key'))).to.deep.equal([]);
  });
});
