/**
 * The bot editor's intents, usable with hundreds of them: a search over names and example text,
 * each intent a disclosure (`<details>`) showing its counts, the first few open, expand and collapse
 * all. A closed intent renders no fields, so a long list stays light; an intent with an error is
 * always shown open, so a refused save can put the focus on its field.
 */
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { FieldErrors } from '../ui/errors.js';
import { t } from '../i18n/i18n.js';
import { field } from '../ui/field.js';
import { splitLines } from '../ui/format.js';
import type { IntentDraft } from './bot-draft.js';

/** Intents open when the editor shows a bot; the rest start closed. */
export const OPEN_FIRST = 5;

/** Which intents are open and what the search says. */
export class IntentsView {
  query = '';
  /** Open or closed by the owner, by index; the others follow `OPEN_FIRST`. */
  private toggled = new Map<number, boolean>();

  constructor(private readonly host: ReactiveControllerHost) {}

  reset(): void {
    this.query = '';
    this.toggled.clear();
  }

  search(query: string): void {
    this.query = query;
    this.host.requestUpdate();
  }

  isOpen(index: number): boolean {
    return this.toggled.get(index) ?? index < OPEN_FIRST;
  }

  set(index: number, open: boolean): void {
    if (this.isOpen(index) === open) return;
    this.toggled.set(index, open);
    this.host.requestUpdate();
  }

  setAll(count: number, open: boolean): void {
    for (let i = 0; i < count; i++) this.toggled.set(i, open);
    this.host.requestUpdate();
  }

  /** The intent at `index` was removed: the ones after it move up, with their state. */
  removed(index: number): void {
    this.toggled = new Map([...this.toggled].filter(([i]) => i !== index).map(([i, open]) => [i > index ? i - 1 : i, open]));
  }

  matches(intent: IntentDraft): boolean {
    const q = this.query.trim().toLowerCase();
    return !q || intent.name.toLowerCase().includes(q) || intent.examples.toLowerCase().includes(q);
  }
}

export interface IntentsSection {
  intents: IntentDraft[];
  errors: FieldErrors;
  view: IntentsView;
  setIntent: (index: number, patch: Partial<IntentDraft>) => void;
  remove: (index: number) => void;
  add: () => void;
  /** The section's own errors (`training.intents`, `training`), and the import/export tools. */
  before: TemplateResult | typeof nothing;
}


export function intentsFieldset(s: IntentsSection): TemplateResult {
  const { intents, errors, view } = s;
  const hasError = (i: number) => Object.keys(errors).some((key) => key.startsWith(`training.intents.${i}.`));
  const shown = intents.map((intent, i) => ({ intent, i })).filter(({ intent, i }) => hasError(i) || view.matches(intent));
  return html`<fieldset class="intents">
    <legend>${t('bots.intents')}</legend>
    ${s.before}
    <div class="toolbar">
      <label for="intent-search">${t('bots.searchIntents')} <input id="intent-search" name="intent-search" type="search" .value=${view.query} @input=${(e: Event) => view.search((e.target as HTMLInputElement).value)} /></label>
      <button type="button" @click=${() => view.setAll(intents.length, true)}>${t('bots.expandAll')}</button>
      <button type="button" @click=${() => view.setAll(intents.length, false)}>${t('bots.collapseAll')}</button>
    </div>
    <p class="hint intent-count" aria-live="polite">${view.query.trim() ? t('bots.intentsMatch', { shown: shown.length, count: intents.length }) : t('bots.intentCount', { count: intents.length })}</p>
    ${shown.map(({ intent, i }) => {
      const open = hasError(i) || view.isOpen(i);
      const key = (f: keyof IntentDraft) => `training.intents.${i}.${f}`;
      const input = (f: keyof IntentDraft, label: string, hint = '', multiline = true) =>
        field({ name: key(f), label, hint, multiline, value: intent[f], error: errors[key(f)], onInput: (value) => s.setIntent(i, { [f]: value }) });
      return html`<details class="item intent" ?open=${open} @toggle=${(e: Event) => view.set(i, (e.target as HTMLDetailsElement).open)}>
        <summary>
          ${t('file.intentAt', { n: i + 1 })}: <strong>${intent.name.trim() || t('bots.noName')}</strong> · ${t('bots.exampleCount', { count: splitLines(intent.examples).length })} ·
          ${t('bots.responseCount', { count: splitLines(intent.responses).length })}
        </summary>
        ${open
          ? html`${input('name', t('bots.intentName'), t('bots.intentNameHint'), false)}
              ${input('examples', t('bots.examples'), t('bots.examplesHint'))}
              ${input('responses', t('bots.responses'), t('bots.responsesHint'))} ${input('suggestions', t('bots.intentQuickReplies'), t('bots.onePerLine'))}
              <button type="button" class="danger" @click=${() => s.remove(i)}>${t('bots.removeIntent', { n: i + 1 })}</button>`
          : nothing}
      </details>`;
    })}
    <button type="button" @click=${s.add}>${t('bots.addIntent')}</button>
  </fieldset>`;
}
