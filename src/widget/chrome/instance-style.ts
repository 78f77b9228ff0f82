import type { ReactiveElement } from 'lit';

/**
 * Per-instance custom properties on `:host` (the launcher's place in the stack, the visual
 * viewport's size) without a `style` attribute: one constructed stylesheet adopted by this
 * instance's shadow root. A strict `style-src` policy does not govern constructed stylesheets,
 * and the host page's own `style` attribute on the element stays untouched.
 */
export class InstanceStyle {
  private sheet?: CSSStyleSheet;
  private readonly values = new Map<string, string>();

  constructor(private readonly host: ReactiveElement) {}

  /**
   * Sets (or, with `null`, removes) one custom property on the host: a private `--_*` one, or a
   * public `--ai-chat-*` one as a default that the page's CSS for the element still overrides.
   */
  set(name: `--${string}`, value: string | null): void {
    if ((this.values.get(name) ?? null) === value) return;
    if (value === null) this.values.delete(name);
    else this.values.set(name, value);
    this.apply();
  }

  private apply(): void {
    const root = this.host.shadowRoot;
    if (!root || typeof CSSStyleSheet !== 'function' || !('adoptedStyleSheets' in root)) return;
    if (!this.sheet) {
      this.sheet = new CSSStyleSheet();
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, this.sheet];
    }
    const declarations = [...this.values].map(([name, value]) => `${name}:${value}`).join(';');
    this.sheet.replaceSync(`:host{${declarations}}`);
  }
}
