/**
 * A line-buffered Server-Sent Events parser over a byte stream. Network chunks split events (and
 * even UTF-8 characters) at arbitrary byte boundaries, so bytes are decoded in streaming mode and only
 * complete lines are interpreted; an event is dispatched at its blank line — or, for a stream that
 * ends without one, at the end of the stream.
 */

export interface SseEvent {
  /** `event:` field; `message` when absent. */
  event: string;
  /** `data:` lines joined with "\n". */
  data: string;
  id?: string;
}

/** Yields the events of an SSE byte stream (WHATWG event-stream rules; comments are skipped). */
export async function* parseSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  let sawField = false;

  const dispatch = (): SseEvent | null => {
    const out = sawField && data.length ? { event: event || 'message', data: data.join('\n'), ...(id !== undefined && { id }) } : null;
    event = '';
    data = [];
    sawField = false;
    return out;
  };

  const feedLine = (line: string): SseEvent | null => {
    if (line === '') return dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    sawField = true;
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id') id = value;
    return null;
  };

  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    // Lines end in \n, \r\n or \r; a trailing \r may be the first half of \r\n, so wait for more.
    while ((newline = buffer.search(/\r\n|\n|\r(?=[^\n])/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      const out = feedLine(line);
      if (out) yield out;
    }
  }
  buffer += decoder.decode();
  for (const line of buffer.split(/\r\n|\n|\r/)) {
    const out = feedLine(line);
    if (out) yield out;
  }
  const last = dispatch();
  if (last) yield last;
}
