/**
 * A Server-Sent Events parser over a byte stream (`response.body`) or a stream of text already
 * decoded (`xhrFetch`'s, in React Native), following the WHATWG
 * "event stream interpretation" rules. `EventSource` is no option for us: it only sends GET and
 * cannot set `Authorization`.
 *
 * Robust to the ways real networks cut a stream: chunk borders anywhere (inside a line, inside a
 * multi-byte UTF-8 character, between the `\r` and `\n` of a CRLF), `\r\n`, `\n` or `\r` line ends,
 * `: comment` lines, multi-line `data:`, and a stream that ends without the final blank line.
 */

/** One dispatched event. */
export interface SseEvent {
  /** The `event:` field; `message` when the frame had none. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The last `id:` seen on the stream, if any. */
  id: string | undefined;
}

/** Incremental line → event state machine; feed it decoded text, read events back. */
export class SseLineParser {
  private buffer = '';
  private eventName = '';
  private dataLines: string[] = [];
  private lastEventId: string | undefined;

  /** Feeds decoded text; returns the events completed by it. */
  push(text: string): SseEvent[] {
    this.buffer += text;
    const events: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const lf = this.buffer.indexOf('\n', start);
      const cr = this.buffer.indexOf('\r', start);
      if (lf === -1 && cr === -1) break;
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        // A lone `\r` at the end may be the first half of `\r\n`: wait for the next chunk.
        if (cr === this.buffer.length - 1) break;
        end = cr;
        next = this.buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
      } else {
        end = lf;
        next = lf + 1;
      }
      const event = this.line(this.buffer.slice(start, end));
      if (event) events.push(event);
      start = next;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  /** Ends the stream: a pending last line and an event without its closing blank line are dispatched. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    const rest = this.buffer.endsWith('\r') ? this.buffer.slice(0, -1) : this.buffer;
    this.buffer = '';
    if (rest) {
      const event = this.line(rest);
      if (event) events.push(event);
    }
    const last = this.dispatch();
    if (last) events.push(last);
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined; // comment, e.g. `: ping` keep-alives
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventName = value;
        break;
      case 'data':
        this.dataLines.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      default:
        break; // `retry` and unknown fields: no meaning for a fetch-based reader
    }
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const name = this.eventName || 'message';
    const data = this.dataLines;
    this.eventName = '';
    this.dataLines = [];
    // Per the standard, a frame without data lines is not an event.
    if (data.length === 0) return undefined;
    return { event: name, data: data.join('\n'), id: this.lastEventId };
  }
}

/** What {@link parseSse} reads: a fetch body (bytes), or a reader of text already decoded. */
export interface SseBody {
  getReader(): {
    read(): Promise<ReadableStreamReadResult<Uint8Array | string>>;
    cancel(): Promise<void>;
    releaseLock(): void;
  };
}

/**
 * Reads SSE events from a byte or text stream. Breaking out of the loop cancels the stream.
 * `onChunk` runs for every chunk received (the client uses it to restart its idle timer).
 */
export async function* parseSse(body: SseBody, onChunk?: () => void): AsyncGenerator<SseEvent, void, undefined> {
  const reader = body.getReader();
  // made at the first bytes only: a runtime without TextDecoder (Hermes) reads text streams
  let decoder: TextDecoder | undefined;
  const parser = new SseLineParser();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onChunk?.();
      // TextDecoder strips a leading BOM, as the standard asks
      yield* parser.push(typeof value === 'string' ? value : (decoder ??= new TextDecoder('utf-8')).decode(value, { stream: true }));
    }
    finished = true;
    yield* parser.push(decoder?.decode() ?? '');
    yield* parser.end();
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
