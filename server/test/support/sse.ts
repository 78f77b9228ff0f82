// Parses a complete text/event-stream body into {event, data} frames (comments dropped).
export interface Frame {
  event: string;
  data: any;
}

export function parseSseBody(text: string): Frame[] {
  const frames: Frame[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length) frames.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return frames;
}
