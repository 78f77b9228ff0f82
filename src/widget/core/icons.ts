import { html } from 'lit';

// Inline SVG icons, drawn with `currentColor` so they take the button's colour.
export const chatIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true" class="icon filled">
  <path d="M4 5.5A2.5 2.5 0 0 1 6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H10l-4.2 3.6A.5.5 0 0 1 5 19.2V16h.5A1.5 1.5 0 0 1 4 14.5z" />
</svg>`;
export const closeIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
  <path d="M6 6l12 12M18 6L6 18" />
</svg>`;
export const sendIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
  <path d="M4 12h14M12 5l7 7-7 7" />
</svg>`;
export const helpIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
  <circle cx="12" cy="12" r="9" /><path d="M9.5 9.5a2.5 2.5 0 1 1 3.3 2.4c-.5.2-.8.6-.8 1.1v.5M12 17v.01" />
</svg>`;
