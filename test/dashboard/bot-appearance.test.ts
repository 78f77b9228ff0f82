// The bot editor's Appearance section against the real service in real Chromium: each edit shows
// at once in the preview (the real <ai-chat-widget>), before any save; saving stores the bot's
// appearance, which the widget on the bot's sites then reads.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/dashboard/pages/bot-editor.js';
import type { AicdBotEditor } from '../../src/dashboard/pages/bot-editor.js';
import type { AiChatWidget } from '../../src/element.js';
import { deep, fill, newTenant, until } from './helpers.js';

const accent = (widget: AiChatWidget) => getComputedStyle(deep(widget, '[part~="send-button"]')!).backgroundColor;

describe('the bot editor: appearance', () => {
  it('editing the colour, name and welcome updates the preview at once, and saving stores them', async () => {
    const tenant = await newTenant();
    const { data: bot } = await tenant.client.bots.create({ name: 'Shop', quick_replies: ['Opening hours'] });
    const el = await fixture<AicdBotEditor>(
      html`<aicd-bot-editor .client=${tenant.client} .botId=${bot.id} .previewBaseUrl=${tenant.baseUrl} .csrfToken=${tenant.token}></aicd-bot-editor>`,
    );
    const widget = await until(() => deep<AiChatWidget>(el, 'ai-chat-widget'), 'the preview');
    await widget.updateComplete;
    const before = accent(widget);

    // white on yellow cannot be read: the form says so, with the contrast
    await fill(el, 'appearance.color', '#ffff00');
    expect(deep(el, '.contrast-warning')!.textContent).to.contain('1.1:1');
    await fill(el, 'appearance.color', '#0f766e');
    expect(deep(el, '.contrast-warning')).to.not.exist;
    await fill(el, 'appearance.bot_name', 'Ava');
    await fill(el, 'appearance.welcome_message', 'Hi, I am Ava.');
    await widget.updateComplete;
    expect(before).to.not.equal('rgb(15, 118, 110)');
    expect(accent(widget), 'the preview takes the colour before any save').to.equal('rgb(15, 118, 110)');
    expect(deep(widget, '[part~="title"]')!.textContent).to.contain('Ava');
    expect(deep(widget, '[part~="message-assistant"] [part~="bubble"]')!.textContent).to.contain('Hi, I am Ava.');

    deep<HTMLButtonElement>(el, 'form button[type="submit"]')!.click();
    await until(() => deep(el, '[role="status"]')?.textContent?.startsWith('Saved.'), 'the save');
    const { data: saved } = await tenant.client.bots.get(bot.id);
    expect(saved.appearance).to.deep.equal({ color: '#0f766e', bot_name: 'Ava', welcome_message: 'Hi, I am Ava.' });

    // the form shows what was saved, and the preview keeps it
    const again = await until(() => deep<AiChatWidget>(el, 'ai-chat-widget'), 'the preview after the save');
    await again.updateComplete;
    expect(deep<HTMLInputElement>(el, '[name="appearance.color"]')!.value).to.equal('#0f766e');
    expect(accent(again)).to.equal('rgb(15, 118, 110)');
  });

  it('shows the launcher in the chosen corner with the chosen icon, and a refused icon URL at its field', async () => {
    const tenant = await newTenant();
    const { data: bot } = await tenant.client.bots.create({ name: 'Shop' });
    const el = await fixture<AicdBotEditor>(
      html`<aicd-bot-editor .client=${tenant.client} .botId=${bot.id} .previewBaseUrl=${tenant.baseUrl} .csrfToken=${tenant.token}></aicd-bot-editor>`,
    );
    const widget = await until(() => deep<AiChatWidget>(el, 'ai-chat-widget'), 'the preview');
    deep<HTMLInputElement>(el, '[name="preview-launcher"]')!.click();
    await fill(el, 'appearance.position', 'bottom-left');
    deep<HTMLInputElement>(el, '[name="appearance.launcher_icon"][value="help"]')!.click();
    await el.updateComplete;
    await widget.updateComplete;
    expect(widget.mode).to.equal('launcher');
    const page = deep(el, '.preview-page')!.getBoundingClientRect();
    const launcher = deep(widget, '[part~="launcher"]')!.getBoundingClientRect();
    expect(launcher.left - page.left).to.be.below(page.right - launcher.right, 'the launcher sits on the left');
    expect(deep(widget, '[part~="launcher"] circle'), 'the question mark icon').to.exist;

    deep<HTMLInputElement>(el, '[name="appearance.launcher_icon"][value="image"]')!.click();
    await el.updateComplete;
    await fill(el, 'appearance.icon_url', 'http://cdn.example.com/icon.png');
    deep<HTMLButtonElement>(el, 'form button[type="submit"]')!.click();
    const error = await until(() => deep(el, '#appearance-icon-error'), 'the icon error');
    expect(error.textContent).to.not.equal('');
    expect((await tenant.client.bots.get(bot.id)).data.appearance).to.deep.equal({});
  });
});
