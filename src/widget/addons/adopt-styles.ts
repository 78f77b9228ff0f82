/**
 * An add-on's stylesheet joins the widget's shadow root when the add-on first shows something
 * there: a constructable stylesheet, not a `<style>` element, so a page's CSP needs nothing for it.
 * Each root takes a sheet once. (Add-ons share no module with the widget but `lit`, so each one
 * that uses this has its own copy in the one-`<script>` build; it holds no state.)
 */
import type { CSSResult } from 'lit';

export function adoptStyles(root: Node | null | undefined, styles: CSSResult): void {
  const sheet = styles.styleSheet;
  const shadow = root as ShadowRoot | null | undefined;
  if (!sheet || !shadow?.adoptedStyleSheets || shadow.adoptedStyleSheets.includes(sheet)) return;
  shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, sheet];
}
