// The SSE parser against real ReadableStreams built in the page (no server involved): chunk borders
// at every byte, CRLF/LF/CR line ends, comments, multi-line data, a missing final blank line.
import { expect } from '@open-wc/testing';
import { parseSse, type SseEvent } from '../../src/client/sse.js';

const encoder = new TextEncoder();

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect(body: ReadableStream<Uint8Array>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of parseSse(body)) events.push(event);
  return events;
}

const parse = (text: string) => collect(streamOf([encoder.encode(text)]));

// One payload with everything awkward in it: CRLF, a comment, multi-line data, 2-, 3- and 4-byte
// UTF-8 characters, a data line with no space after the colon, and an id.
const TRICKY =
  ': ping\r\n' +
  'event: meta\r\ndata: {"conversation_id":"conv_1"}\r\n\r\n' +
  'event: delta\ndata: {"text":"Grüße €"}\n\n' +
  'event: delta\r\nid: 7\r\ndata:{"text":" 👋 ok"}\r\n\r\n' +
  'data: line one\ndata: line two\n\n' +
  ': trailing comment\n';

const TRICKY_EVENTS: SseEvent[] = [
  { event: 'meta', data: '{"conversation_id":"conv_1"}', id: undefined },
  { event: 'delta', data: '{"text":"Grüße €"}', id: undefined },
  { event: 'delta', data: '{"text":" 👋 ok"}', id: '7' },
  { event: 'message', data: 'line one\nline two', id: '7' },
];

describe('parseSse', () => {
  it('parses named events, default "message" events and multi-line data', async () => {
    expect(await parse(TRICKY)).to.deep.equal(TRICKY_EVENTS);
  });

  it('gives the same events wherever the bytes are split in two', async () => {
    const bytes = encoder.encode(TRICKY);
    for (let cut = 1; cut < bytes.length; cut++) {
      const events = await collect(streamOf([bytes.slice(0, cut), bytes.slice(cut)]));
      expect(events, `split at byte ${cut}`).to.deep.equal(TRICKY_EVENTS);
    }
  });

  it('gives the same events when every byte arrives on its own', async () => {
    const bytes = encoder.encode(TRICKY);
    const chunks = Array.from(bytes, (byte) => new Uint8Array([byte]));
    expect(await collect(streamOf(chunks))).to.deep.equal(TRICKY_EVENTS);
  });

  it('treats a lone CR as a line end, and CR LF split across chunks as one', async () => {
    expect(await parse('data: a\rdata: b\r\rdata: c\r\r')).to.deep.equal([
      { event: 'message', data: 'a\nb', id: undefined },
      { event: 'message', data: 'c', id: undefined },
    ]);
    const events = await collect(streamOf([encoder.encode('data: a\r'), encoder.encode('\ndata: b\r\n\r\n')]));
    expect(events).to.deep.equal([{ event: 'message', data: 'a\nb', id: undefined }]);
  });

  it('dispatches the last event when the stream ends without a blank line', async () => {
    expect(await parse('event: done\ndata: {"x":1}')).to.deep.equal([{ event: 'done', data: '{"x":1}', id: undefined }]);
    expect(await parse('event: done\ndata: {"x":1}\n')).to.deep.equal([{ event: 'done', data: '{"x":1}', id: undefined }]);
    expect(await parse('event: done\ndata: {"x":1}\r')).to.deep.equal([{ event: 'done', data: '{"x":1}', id: undefined }]);
  });

  it('ignores comments, frames without data and unknown fields', async () => {
    const events = await parse(': hello\n\nevent: meta\n\nretry: 10\nfoo: bar\ndata\n\n');
    // `data` with no colon is a data line with an empty value
    expect(events).to.deep.equal([{ event: 'message', data: '', id: undefined }]);
  });

  it('strips a leading byte-order mark', async () => {
    expect(await parse('\uFEFFdata: x\n\n')).to.deep.equal([{ event: 'message', data: 'x', id: undefined }]);
  });

  it('cancels the stream when the consumer stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(encoder.encode('data: tick\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    let seen = 0;
    for await (const event of parseSse(body)) {
      expect(event.data).to.equal('tick');
      if (++seen === 3) break;
    }
    expect(cancelled).to.equal(true);
  });

  it('rejects with the stream error when the body fails midway', async () => {
    const failure = new TypeError('network changed');
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(encoder.encode('data: first\n\n'));
        else controller.error(failure);
      },
    });
    const seen: string[] = [];
    let caught: unknown;
    try {
      for await (const event of parseSse(body)) seen.push(event.data);
    } catch (error) {
      caught = error;
    }
    expect(seen).to.deep.equal(['first']);
    expect(caught).to.equal(failure);
  });
});
