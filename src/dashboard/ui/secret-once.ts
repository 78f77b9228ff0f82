import { html, type TemplateResult } from 'lit';
import { t } from '../i18n/i18n.js';
import './copy-button.js';

export interface SecretOnceOptions {
  /** The section's heading. */
  title: string;
  /** Why it is shown only now. */
  note: string;
  secret: string;
  copyLabel: string;
  onDismiss: () => void;
}

/** A secret the service answers only once (an API key, a webhook's signing secret), with a copy button. */
export function secretOnce(o: SecretOnceOptions): TemplateResult {
  return html`<section aria-labelledby="secret-title" class="secret">
    <h2 id="secret-title">${o.title}</h2>
    <p>${o.note}</p>
    <pre><code>${o.secret}</code></pre>
    <div class="toolbar">
      <aicd-copy-button .text=${o.secret} label=${o.copyLabel}></aicd-copy-button>
      <button type="button" @click=${o.onDismiss}>${t('secret.done')}</button>
    </div>
  </section>`;
}
