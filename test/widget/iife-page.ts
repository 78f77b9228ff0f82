// A page of a website that loads the one-<script> build (or the all-in-one file) by a <script> tag:
// a same-origin iframe, written before the script runs, whose widget talks to the real service.
import type { AiChatWidget } from '../../src/element.js';
import { waitFor } from './helpers.js';

export interface Page {
  frame: HTMLIFrameElement;
  win: Window & typeof globalThis;
  widget: AiChatWidget;
  /** The add-on files the page loaded so far (`de`, `stream`…). */
  addons(): string[];
}

export interface PageOptions {
  /** The page's width in px. */
  width?: number;
  /** Where the page loads the built script from. */
  script?: string;
  /** Runs in the page's window before the script does (to watch its console, say). */
  prepare?: (win: Window & typeof globalThis) => void;
}

/** A page in `lang` with `<ai-chat-widget attributes>` and the built script. */
export async function page(lang: string, attributes: string, { width = 800, script = '/dist/ai-chat-widget.iife.js', prepare }: PageOptions = {}): Promise<Page> {
  const frame = document.createElement('iframe');
  frame.style.width = `${width}px`;
  frame.style.height = '700px';
  document.body.append(frame);
  void frame.offsetWidth; // laid out at its width before the page in it starts (and asks matchMedia)
  prepare?.(frame.contentWindow as Window & typeof globalThis);
  const doc = frame.contentDocument!;
  doc.open();
  doc.write(`<!doctype html><html lang="${lang}"><body><ai-chat-widget ${attributes}></ai-chat-widget>
    <script src="${script}"></script></body></html>`);
  doc.close();
  const win = frame.contentWindow as Window & typeof globalThis;
  await waitFor(() => win.customElements.get('ai-chat-widget'), 8000, 'the built script to define the element');
  const widget = doc.querySelector('ai-chat-widget') as AiChatWidget;
  await widget.updateComplete;
  const addons = () =>
    [...doc.querySelectorAll<HTMLScriptElement>('script[src]')]
      .map((s) => /ai-chat-widget\.([a-z-]+)\.js$/.exec(s.src)?.[1])
      .filter((name): name is string => Boolean(name) && name !== 'iife');
  return { frame, win, widget, addons };
}
