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
import pageStyles from '../ui/page.styles.js';

const percent = (share: number) => `${Math.round(share * 100)} %`;
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
    padding-left: 1.2rem;
  }
`;

function overallAdvice(accuracy: number): string {
  if (accuracy >= 0.9) return 'Your intents are well separated: most questions will reach the right one.';
  if (accuracy >= 0.7) return 'Some questions go to the wrong intent. The lines below say which intents to work on.';
  return 'Many questions would go to the wrong intent. Give each intent more varied examples, and merge intents that mean the same.';
}

function intentAdvice(row: IntentQuality['intents'][number]): string {
  if (row.examples < 2) return `Add at least 2 examples to ${row.intent}: with one, the check cannot test it.`;
  if (row.accuracy < WEAK) return `Add more varied examples to ${row.intent}: other words, other sentence shapes, as visitors would ask.`;
  return 'Good.';
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
      this.problem = error instanceof ApiError && error.code === 'conflict' ? `Train the ${this.noun} to see its quality.` : errorMessage(error);
    } finally {
      if (run === this.run) this.loading = false;
    }
  }

  override render() {
    return html`<section aria-labelledby="quality-heading">
      <h2 id="quality-heading">Quality</h2>
      ${this.renderBody()}
    </section>`;
  }

  private renderBody() {
    if (this.loading) return html`<p class="status" role="status">Checking the training…</p>`;
    if (this.problem || !this.load) return html`<p class="status">${this.problem || `Train the ${this.noun} to see its quality.`}</p>`;
    const q = this.report;
    if (!q) return nothing;
    if (q.examples === 0 || q.intents.every((i) => i.examples < 2)) return html`<p class="status">Add at least 2 examples to an intent to see its quality.</p>`;
    const worstFirst = [...q.intents].sort((a, b) => a.accuracy - b.accuracy || a.intent.localeCompare(b.intent));
    return html`<p>
        Cross-validated accuracy: <strong class="accuracy">${percent(q.accuracy)}</strong> of ${q.examples} examples (${q.folds} folds).
      </p>
      <p class="advice">${overallAdvice(q.accuracy)} Each example was tested on a model trained without it, as a new question would be.</p>
      <p>Threshold: <strong class="threshold">${percent(q.threshold)}</strong></p>
      <p class="advice">
        A question whose best intent is less sure than this gets the fallback (or knowledge) instead of a wrong answer. It is calibrated at each
        training; set your own in the training's fallback threshold to answer more (lower) or to be more careful (higher).
      </p>
      <table class="intents">
        <caption>Accuracy per intent, worst first</caption>
        <thead><tr><th scope="col">Intent</th><th scope="col">Examples</th><th scope="col">Accuracy</th><th scope="col">What to do</th></tr></thead>
        <tbody>
          ${worstFirst.map((row) => html`<tr><td>${row.intent}</td><td>${row.examples}</td><td>${percent(row.accuracy)}</td><td>${intentAdvice(row)}</td></tr>`)}
        </tbody>
      </table>
      <h3>Intents confused with each other</h3>
      ${q.confused_pairs.length
        ? html`<ul class="confused">
            ${q.confused_pairs.map(
              (p) => html`<li>
                <strong>${p.intent}</strong> → <strong>${p.predicted}</strong>: ${p.count} ${p.count === 1 ? 'example' : 'examples'} of ${p.intent} were taken for ${p.predicted}.
                These two intents overlap: merge them, or make their examples more distinct.
              </li>`,
            )}
          </ul>`
        : html`<p>No intent was taken for another.</p>`}
      <h3>Examples that look mislabelled</h3>
      ${q.suspect_examples.length
        ? html`<ul class="suspects">
            ${q.suspect_examples.map(
              (s) => html`<li>
                “${s.example}” is under <strong>${s.intent}</strong>, but the model prefers <strong>${s.predicted}</strong> (${percent(s.confidence)}). Move it to
                ${s.predicted}, or reword it if it belongs to ${s.intent}.
              </li>`,
            )}
          </ul>`
        : html`<p>None: every example sits well with its intent.</p>`}`;
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

  override render() {
    const r = this.result;
    return html`<section aria-labelledby="try-heading">
      <h2 id="try-heading">Try a question</h2>
      <form @submit=${this.onSubmit}>
        <label for="try-text">Question <input id="try-text" name="try-text" maxlength="4000" .value=${this.text} @input=${(e: Event) => (this.text = (e.target as HTMLInputElement).value)} /></label>
        <button type="submit" ?disabled=${this.busy || !this.classify || !this.text.trim()}>Try</button>
      </form>
      <div role="status" aria-live="polite">
        ${this.problem ? html`<p class="error">${this.problem}</p>` : nothing}
        ${r
          ? html`<ol class="ranking">
                ${r.intents.map((i) => html`<li><strong>${i.name}</strong>: ${percent(i.confidence)}</li>`)}
              </ol>
              <p class="verdict">
                ${r.fallback
                  ? `The bot would fall back: it is not sure enough (its threshold is ${percent(r.threshold)}), or the question shares no word with the best intent's examples.`
                  : `The bot would answer with ${r.intents[0]?.name} (above its threshold of ${percent(r.threshold)}).`}
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
