// In-page half of the browser bench. The same calls drive either widget through a small adapter;
// the driver (browser.ts) only ever calls `window.bench.*`. `?w=ours` or `?w=deep` picks the widget.
(() => {
  const which = new URLSearchParams(location.search).get('w');
  const host = document.getElementById('host');
  const TEXT = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.';

  /** Resolves after the next frame has been produced (rAF, then a task after it). */
  const nextPaint = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));

  const messages = (n) =>
    Array.from({ length: n }, (_, i) => ({ id: `m${i}`, role: i % 2 ? 'assistant' : 'user', content: `${i}: ${TEXT}` }));

  const adapters = {
    ours: {
      src: '/ours.js',
      module: false,
      tag: 'ai-chat-widget',
      create({ mode = 'inline', history = [], markdown = false } = {}) {
        const el = document.createElement('ai-chat-widget');
        el.mode = mode;
        el.storage = 'none';
        // the bench server answers POST /v1/chat with the token stream, /md/v1/chat with markdown
        el.baseUrl = `${location.origin}${markdown ? '/md' : ''}/v1`;
        el.apiKey = 'bench';
        el.userId = 'bench-user';
        el.stream = true;
        // the public `messages` setter: set before connecting, it is the starting transcript
        if (history.length) el.messages = history.map((m) => ({ ...m, time: '', status: 'sent' }));
        return el;
      },
      ready(el) {
        return new Promise((resolve) => el.addEventListener('ai-chat-ready', resolve, { once: true })).then(() => el.updateComplete);
      },
      append(el, m) {
        el.messages = [...el.messages, { ...m, time: '', status: 'sent' }];
      },
      async openFocus(el) {
        await el.open();
      },
      focused: (el) => el.shadowRoot.activeElement?.localName ?? null,
      send: (el, text) => void el.send(text),
      count: (el) => el.shadowRoot.querySelectorAll('.message').length,
      lastReply: (el) => [...el.shadowRoot.querySelectorAll('[part~="message-assistant"] [part~="bubble"]')].at(-1),
    },
    deep: {
      src: '/deep.js',
      module: true,
      tag: 'deep-chat',
      create({ history = [], markdown = false } = {}) {
        const el = document.createElement('deep-chat');
        el.style.width = '400px';
        el.style.height = '600px';
        el.connect = { url: `${location.origin}${markdown ? '/md' : ''}/stream/deep`, stream: true };
        if (history.length) el.history = history.map((m) => ({ role: m.role === 'user' ? 'user' : 'ai', text: m.content }));
        return el;
      },
      ready(el) {
        return new Promise((resolve) => {
          el.onComponentRender = () => resolve();
        });
      },
      append(el, m) {
        el.addMessage({ role: m.role === 'user' ? 'user' : 'ai', text: m.content });
      },
      async openFocus(el) {
        el.focusInput(); // deep-chat has no launcher: its panel is always open
      },
      focused: (el) => el.shadowRoot.activeElement?.id || el.shadowRoot.activeElement?.localName || null,
      send: (el, text) => el.submitUserMessage({ text }),
      count: (el) => el.shadowRoot.querySelectorAll('.message-bubble').length,
      lastReply: (el) => [...el.shadowRoot.querySelectorAll('.ai-message-text')].at(-1),
    },
  };
  const a = adapters[which];
  let el = null;

  async function mount(options) {
    el?.remove();
    el = a.create(options);
    const ready = a.ready(el);
    host.append(el);
    await ready;
    return el;
  }

  window.bench = {
    /** Script fetch + evaluation + element creation until the widget says it is ready. */
    async boot() {
      const t0 = performance.now();
      await new Promise((resolve, reject) => {
        const s = document.createElement('script');
        if (a.module) s.type = 'module';
        s.src = a.src;
        s.onload = resolve;
        s.onerror = reject;
        document.head.append(s);
      });
      await customElements.whenDefined(a.tag);
      await mount();
      const ms = performance.now() - t0;
      await nextPaint();
      return ms;
    },
    /** Opening the panel (ours: launcher mode) until the input has focus and the frame is painted. */
    async openFocus() {
      await mount({ mode: 'launcher' });
      await nextPaint();
      const t0 = performance.now();
      await a.openFocus(el);
      await nextPaint();
      return { ms: performance.now() - t0, focused: a.focused(el) };
    },
    /** A new element with an n-message transcript, from creation until that frame is painted. */
    async renderTranscript(n) {
      const history = messages(n);
      el?.remove();
      await nextPaint();
      const t0 = performance.now();
      await mount({ history });
      await nextPaint();
      return { ms: performance.now() - t0, rendered: a.count(el) };
    },
    /** One more message on the current transcript until the next frame. */
    async append() {
      const before = a.count(el);
      const t0 = performance.now();
      a.append(el, { id: 'extra', role: 'assistant', content: `extra: ${TEXT}` });
      await nextPaint();
      return { ms: performance.now() - t0, added: a.count(el) - before };
    },
    /** Starts a streamed reply; long tasks are collected until `endStream()`. */
    startStream() {
      window.__longtasks = [];
      window.__observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longtasks.push(e.duration);
      });
      window.__observer.observe({ type: 'longtask' });
      a.send(el, 'stream please');
    },
    /** Stops collecting; `complete` says whether the last token reached the page. */
    async endStream(lastToken) {
      await nextPaint();
      window.__observer.disconnect();
      const text = el.shadowRoot.textContent ?? '';
      return { longtasks: window.__longtasks, complete: text.includes(lastToken) };
    },
    /**
     * `startStream()`, and every long task and a heartbeat every 250 ms also go to the console:
     * the driver hears of them while a widget that blocks the page for minutes is still busy.
     */
    startReportedStream() {
      window.bench.startStream();
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) console.debug(`bench:longtask ${e.duration}`);
      }).observe({ type: 'longtask' });
      setInterval(() => console.debug('bench:beat'), 250);
    },
    /** Resolves (polling, so the wait adds no long task) once the last reply's last block shows `marker`. */
    async awaitReply(marker) {
      const shows = () => {
        const reply = a.lastReply(el);
        return Boolean((reply?.lastElementChild ?? reply)?.textContent?.includes(marker));
      };
      while (!shows()) await new Promise((r) => setTimeout(r, 200));
      await nextPaint();
    },
    mount: (options) => mount(options).then(() => undefined),
    count: () => a.count(el),
  };
})();
