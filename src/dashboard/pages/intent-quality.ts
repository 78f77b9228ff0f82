/**
 * What a bot's (or an agent's) training is worth, for its owner: the cross-validation report of
 * `GET /v1/bots/{id}/quality` in plain words with what to do about each finding, and a "try it"
 * box over `POST /v1/bots/{id}/classify`. A chunk of its own: the editors load it once there is a
 * trained model to report on.
 */
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { ApiError, type IntentClassification, type IntentQuality } from '../../client/index.js';
import { errorMessage } from '../ui/errors.js';
import { LocaleController, t, tParts } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';

const percent = (share: number) => t('format.percent', { n: Math.round(share * 100) });
/** Below this accuracy an intent needs work. */
const WEAK = 0.8;

const styles = css`
  .advice {
    margin: 0.2rem 0 0.6rem;
  }
  table {
    margin-bottom: 0.6rem;
  }
  ol.ranking {
    padding-inline-start: 1.2rem;
  }
`;

function overallAdvice(accuracy: number): string {
  if (accuracy >= 0.9) return t('quality.good');
  if (accuracy >= 0.7) return t('quality.fair');
  return t('quality.poor');
}

function intentAdvice(row: IntentQuality['intents'][number]): string {
  if (row.examples < 2) return t('quality.tooFew', { intent: row.intent });
  if (row.accuracy < WEAK) return t('quality.weak', { intent: row.intent });
  return t('quality.fine');
}

/**
 * The quality report of the model `load` reads, fetched again whenever `version` changes (a new
 * training). A model not trained yet shows how to get one.
 */
@customElement('aicd-intent-quality')
export class AicdIntentQuality extends LitElement {
  static override styles = [pageStyles, styles];

  /** Reads the report (`client.bots.quality(id)` or `client.agents.quality(id)`); null: nothing trained. */
  @property({ attribute: false }) load: (() => Promise<IntentQuality>) | null = null;
  /** Changes with each training (the bot's status and `trained_at`, the agent's job): the report is read again. */
  @property() version = '';
  /** "bot" or "agent", for the wording. */
  @property() noun = 'bot';

  @state() private report: IntentQuality | null = null;
  @state() private problem = '';
  @state() private loading = false;
  private readonly i18n = new LocaleController(this);
  private run = 0;

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Not on `load`: a host passes a new closure at each render; `version` says when the model changed.
    if (changed.has('version')) void this.fetch();
  }

  private async fetch(): Promise<void> {
    const run = ++this.run;
    this.report = null;
    this.problem = '';
    if (!this.load) return;
    this.loading = true;
    try {
      const report = await this.load();
      if (run === this.run) this.report = report;
    } catch (error) {
      if (run !== this.run) return;
      this.problem = error instanceof ApiError && error.code === 'conflict' ? this.untrained() : errorMessage(error);
    } finally {
      if (run === this.run) this.loading = false;
    }
  }

  override render() {
    return html`<section aria-labelledby="quality-heading">
      <h2 id="quality-heading">${t('quality.title')}</h2>
      ${this.renderBody()}
    </section>`;
  }

  private untrained(): string {
    return t(this.noun === 'agent' ? 'quality.trainAgent' : 'quality.trainBot');
  }

  private renderBody() {
    if (this.loading) return html`<p class="status" role="status">${t('quality.checking')}</p>`;
    if (this.problem || !this.load) return html`<p class="status">${this.problem || this.untrained()}</p>`;
    const q = this.report;
    if (!q) return nothing;
    if (q.examples === 0 || q.intents.every((i) => i.examples < 2)) return html`<p class="status">${t('quality.empty')}</p>`;
    const worstFirst = [...q.intents].sort((a, b) => a.accuracy - b.accuracy || a.intent.localeCompare(b.intent));
    return html`<p>
        ${tParts('quality.accuracy', { accuracy: html`<strong class="accuracy">${percent(q.accuracy)}</strong>`, count: q.examples, folds: q.folds })}
      </p>
      <p class="advice">${overallAdvice(q.accuracy)} ${t('quality.method')}</p>
      <p>${tParts('quality.threshold', { threshold: html`<strong class="threshold">${percent(q.threshold)}</strong>` })}</p>
      <p class="advice">
        ${t('quality.thresholdHint')}
      </p>
      <table class="intents">
        <caption>${t('quality.perIntent')}</caption>
        <thead><tr><th scope="col">${t('overview.intent')}</th><th scope="col">${t('quality.examples')}</th><th scope="col">${t('quality.accuracyColumn')}</th><th scope="col">${t('quality.advice')}</th></tr></thead>
        <tbody>
          ${worstFirst.map((row) => html`<tr><td>${row.intent}</td><td>${row.examples}</td><td>${percent(row.accuracy)}</td><td>${intentAdvice(row)}</td></tr>`)}
        </tbody>
      </table>
      <h3>${t('quality.confused')}</h3>
      ${q.confused_pairs.length
        ? html`<ul class="confused">
            ${q.confused_pairs.map(
              (p) => html`<li>
                <strong>${p.intent}</strong> → <strong>${p.predicted}</strong>: ${t('quality.confusedPair', { count: p.count, intent: p.intent, predicted: p.predicted })}
              </li>`,
            )}
          </ul>`
        : html`<p>${t('quality.noConfusion')}</p>`}
      <h3>${t('quality.suspects')}</h3>
      ${q.suspect_examples.length
        ? html`<ul class="suspects">
            ${q.suspect_examples.map(
              (s) => html`<li>
                ${tParts('quality.suspect', {
                  example: s.example,
                  intent: html`<strong>${s.intent}</strong>`,
                  predicted: html`<strong>${s.predicted}</strong>`,
                  confidence: percent(s.confidence),
                  target: s.predicted,
                  own: s.intent,
                })}
              </li>`,
            )}
          </ul>`
        : html`<p>${t('quality.noSuspects')}</p>`}`;
  }
}

/**
 * Type a question, see the three intents the model finds most likely (as percentages) and whether
 * the bot would answer or fall back at its threshold. Nothing is stored or counted.
 */
@customElement('aicd-try-intent')
export class AicdTryIntent extends LitElement {
  static override styles = [pageStyles, styles];

  /** Classifies a text (`client.bots.classify(id, {text})`). */
  @property({ attribute: false }) classify: ((text: string) => Promise<IntentClassification>) | null = null;

  @state() private text = '';
  @state() private result: IntentClassification | null = null;
  @state() private problem = '';
  @state() private busy = false;
  private readonly i18n = new LocaleController(this);

  override render() {
    const r = this.result;
    return html`<section aria-labelledby="try-heading">
      <h2 id="try-heading">${t('quality.try')}</h2>
      <form @submit=${this.onSubmit}>
        <label for="try-text">${t('overview.question')} <input id="try-text" name="try-text" maxlength="4000" .value=${this.text} @input=${(e: Event) => (this.text = (e.target as HTMLInputElement).value)} /></label>
        <button type="submit" ?disabled=${this.busy || !this.classify || !this.text.trim()}>${t('quality.tryButton')}</button>
      </form>
      <div role="status" aria-live="polite">
        ${this.problem ? html`<p class="error">${this.problem}</p>` : nothing}
        ${r
          ? html`<ol class="ranking">
                ${r.intents.map((i) => html`<li><strong>${i.name}</strong>: ${percent(i.confidence)}</li>`)}
              </ol>
              <p class="verdict">
                ${r.fallback
                  ? t('quality.wouldFallBack', { threshold: percent(r.threshold) })
                  : t('quality.wouldAnswer', { intent: r.intents[0]?.name ?? '', threshold: percent(r.threshold) })}
              </p>`
          : nothing}
      </div>
    </section>`;
  }

  private async onSubmit(event: Event): Promise<void> {
    event.preventDefault();
    const text = this.text.trim();
    if (!this.classify || !text) return;
    this.busy = true;
    this.problem = '';
    try {
      this.result = await this.classify(text);
    } catch (error) {
      this.result = null;
      this.problem = error instanceof ApiError && error.code === 'conflict' ? 'Save and train the bot to try it.' : errorMessage(error);
    } finally {
      this.busy = false;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-intent-quality': AicdIntentQuality;
    'aicd-try-intent': AicdTryIntent;
  }
}
