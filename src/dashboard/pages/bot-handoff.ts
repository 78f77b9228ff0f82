/**
 * The bot editor's "Handoff to a person" section: `GET/PUT /v1/bots/{id}/handoff`. On or off, after
 * how many fallback answers in a row, on which of the bot's own intents, and the opening hours
 * (weekly ranges in an IANA time zone chosen from the browser's list). Its own form and save,
 * beside the bot's: the settings are a resource of their own and need no training. The form checks
 * what it can judge itself; the service's errors are shown at the field they name. A chunk of its
 * own (the editor loads it).
 */
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AiChatClient, HandoffSettings, HandoffSettingsInput, HandoffUnavailableReason, OpeningRange } from '../../client/index.js';
import { errorMessage, type FieldErrors } from '../ui/errors.js';
import { field } from '../ui/field.js';
import { FormState } from '../ui/form-state.js';
import { browserTimeZone, timeZoneOptions } from '../ui/format.js';
import pageStyles from '../ui/page.styles.js';

type Day = OpeningRange['day'];

export const DAYS: readonly (readonly [Day, string])[] = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
];

/** The request schema's bounds. */
const MAX_FALLBACKS = 20;

const REASONS: Record<HandoffUnavailableReason, string> = {
  disabled: 'Handoff is off.',
  outside_hours: 'It is outside the opening hours.',
  nobody_online: 'Nobody on the team is online (the status beside Sign out).',
};

export interface HandoffDraft {
  enabled: boolean;
  /** As typed; empty: never by count. */
  afterFallbacks: string;
  intents: string[];
  useHours: boolean;
  timeZone: string;
  /** In weekday order, so an error at `hours.weekly.<i>` names the range shown at that index. */
  weekly: OpeningRange[];
}

const dayIndex = (day: Day) => DAYS.findIndex(([d]) => d === day);
const inWeekOrder = (weekly: OpeningRange[]) => [...weekly].sort((a, b) => dayIndex(a.day) - dayIndex(b.day) || a.from.localeCompare(b.from));

export function handoffDraftOf(settings: HandoffSettings): HandoffDraft {
  return {
    enabled: settings.enabled,
    afterFallbacks: settings.after_fallbacks === null ? '' : String(settings.after_fallbacks),
    intents: [...settings.intents],
    useHours: settings.hours !== null,
    timeZone: settings.hours?.time_zone ?? browserTimeZone(),
    weekly: inWeekOrder(settings.hours?.weekly ?? []),
  };
}

const minutes = (time: string) => {
  const [h, m] = time.split(':').map(Number);
  return h! * 60 + m!;
};

/** What the form can tell before saving; keys are the request's paths, as the service's errors are. */
export function handoffProblems(d: HandoffDraft): FieldErrors {
  const problems: FieldErrors = {};
  const count = Number(d.afterFallbacks.trim());
  if (d.afterFallbacks.trim() && (!Number.isInteger(count) || count < 1 || count > MAX_FALLBACKS)) {
    problems.after_fallbacks = `Enter a whole number from 1 to ${MAX_FALLBACKS}, or leave it empty.`;
  }
  if (d.useHours) {
    if (!d.timeZone) problems['hours.time_zone'] = 'Choose a time zone.';
    if (d.weekly.length === 0) problems.hours = 'Add at least one opening range, or turn opening hours off.';
    d.weekly.forEach((range, i) => {
      if (!range.from) problems[`hours.weekly.${i}.from`] = 'Enter a time.';
      else if (!range.to) problems[`hours.weekly.${i}.to`] = 'Enter a time.';
      else if (minutes(range.to) <= minutes(range.from) && range.to !== '24:00') problems[`hours.weekly.${i}.to`] = 'Must be after the opening time.';
    });
  }
  return problems;
}

export function handoffRequestOf(d: HandoffDraft): HandoffSettingsInput {
  return {
    enabled: d.enabled,
    after_fallbacks: d.afterFallbacks.trim() ? Number(d.afterFallbacks.trim()) : null,
    intents: d.intents,
    hours: d.useHours ? { time_zone: d.timeZone, weekly: d.weekly } : null,
  };
}

const fieldKeys = (d: HandoffDraft) => [
  'enabled',
  'after_fallbacks',
  'intents',
  'hours',
  'hours.time_zone',
  ...d.weekly.flatMap((_, i) => [`hours.weekly.${i}.from`, `hours.weekly.${i}.to`, `hours.weekly.${i}`]),
];

const styles = css`
  fieldset.day {
    border-style: dashed;
  }
  .range {
    display: flex;
    flex-wrap: wrap;
    gap: 0.6rem;
    align-items: end;
  }
  label.check {
    flex-direction: row;
    align-items: center;
    gap: 0.5rem;
    font-weight: 400;
    margin-bottom: 0.4rem;
  }
`;

/**
 * @fires aicd-handoff-saved - The settings were saved.
 */
@customElement('aicd-bot-handoff')
export class AicdBotHandoff extends LitElement {
  static override styles = [pageStyles, styles];

  @property({ attribute: false }) client!: AiChatClient;
  @property({ attribute: false }) botId = '';
  /** The bot's own intents (as saved): the ones handoff can be asked for on. */
  @property({ attribute: false }) intents: string[] = [];

  @state() private draft: HandoffDraft | null = null;
  @state() private saved: HandoffSettings | null = null;
  @state() private loadError = '';
  @state() private notice = '';
  private readonly form = new FormState(this);

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('botId') || changed.has('client')) void this.load();
  }

  private async load(): Promise<void> {
    const id = this.botId;
    this.draft = null;
    this.loadError = '';
    this.notice = '';
    if (!id || !this.client) return;
    try {
      const { data } = await this.client.handoff.settings(id);
      if (id !== this.botId) return;
      this.saved = data;
      this.draft = handoffDraftOf(data);
      this.form.reset();
    } catch (error) {
      if (id === this.botId) this.loadError = errorMessage(error);
    }
  }

  override render() {
    const d = this.draft;
    return html`<section aria-labelledby="handoff-heading">
      <h2 id="handoff-heading">Handoff to a person</h2>
      ${this.loadError ? html`<p class="error" role="alert">${this.loadError}</p>` : nothing}
      ${d ? this.renderForm(d) : this.loadError ? nothing : html`<p class="status" role="status">Loading…</p>`}
    </section>`;
  }

  private renderForm(d: HandoffDraft) {
    const errors = this.form.errors;
    return html`<form novalidate aria-labelledby="handoff-heading" @submit=${this.save}>
      ${this.form.formError ? html`<p class="error" role="alert">${this.form.formError}</p>` : nothing}
      <label class="check">
        <input type="checkbox" name="enabled" .checked=${d.enabled} @change=${(e: Event) => this.patch({ enabled: (e.target as HTMLInputElement).checked })} />
        Visitors can ask for a person
      </label>
      ${field({ name: 'after_fallbacks', label: 'Hand off after this many fallback answers in a row', hint: `1 to ${MAX_FALLBACKS}; empty: never by count.`, type: 'number', min: 1, max: MAX_FALLBACKS, step: 1, value: d.afterFallbacks, error: errors.after_fallbacks, onInput: (afterFallbacks) => this.patch({ afterFallbacks }) })}
      ${this.renderIntents(d, errors)} ${this.renderHours(d, errors)}
      <p class="hint" id="offline-hint">
        When nobody can answer (handoff off, outside the opening hours, or nobody on the team is online), the widget offers visitors a form to
        leave their email and a message; they appear in the Inbox under “Left while nobody was online”.
      </p>
      ${this.saved ? html`<p class="hint">Right now: ${this.saved.available ? 'a person can be asked for.' : REASONS[this.saved.unavailable_reason ?? 'disabled']}</p>` : nothing}
      <div class="toolbar">
        <button type="submit" class="primary" ?disabled=${this.form.saving}>Save handoff settings</button>
        <span class="status" role="status">${this.notice}</span>
      </div>
    </form>`;
  }

  private renderIntents(d: HandoffDraft, errors: FieldErrors) {
    // an intent chosen before it was renamed or removed stays listed, so a save does not drop it silently
    const names = [...new Set([...this.intents, ...d.intents])];
    const onChange = (e: Event) => {
      const boxes = (e.target as HTMLElement).closest('fieldset')!.querySelectorAll<HTMLInputElement>('input[name="intents"]');
      this.patch({ intents: [...boxes].filter((box) => box.checked).map((box) => box.value) });
    };
    return html`<fieldset>
      <legend>Hand off when one of these intents matches</legend>
      ${errors.intents ? html`<p class="field-error" role="alert">${errors.intents}</p>` : nothing}
      ${names.length
        ? names.map(
            (name) => html`<label class="check">
              <input type="checkbox" name="intents" value=${name} .checked=${d.intents.includes(name)} @change=${onChange} />
              ${name}${this.intents.includes(name) ? nothing : html` <span class="hint">(no longer trained)</span>`}
            </label>`,
          )
        : html`<p class="hint">The bot has no intents yet.</p>`}
    </fieldset>`;
  }

  private renderHours(d: HandoffDraft, errors: FieldErrors) {
    return html`<fieldset>
      <legend>Opening hours</legend>
      <label class="check">
        <input type="checkbox" name="use-hours" .checked=${d.useHours} @change=${(e: Event) => this.patch({ useHours: (e.target as HTMLInputElement).checked })} />
        Only during opening hours (otherwise whenever someone on the team is online)
      </label>
      ${errors.hours ? html`<p class="field-error" role="alert">${errors.hours}</p>` : nothing}
      ${d.useHours
        ? html`${field({ name: 'hours.time_zone', label: 'Time zone', value: d.timeZone, options: timeZoneOptions(d.timeZone), error: errors['hours.time_zone'], onInput: (timeZone) => this.patch({ timeZone }) })}
          ${DAYS.map(([day, name]) => this.renderDay(d, day, name, errors))}`
        : nothing}
    </fieldset>`;
  }

  private renderDay(d: HandoffDraft, day: Day, name: string, errors: FieldErrors) {
    const ranges = d.weekly.map((range, index) => ({ range, index })).filter(({ range }) => range.day === day);
    const setRange = (index: number, patch: Partial<OpeningRange>) => this.patch({ weekly: d.weekly.map((r, i) => (i === index ? { ...r, ...patch } : r)) });
    return html`<fieldset class="day">
      <legend>${name}</legend>
      ${ranges.length ? nothing : html`<p class="hint">Closed.</p>`}
      ${ranges.map(
        ({ range, index }, n) => html`<div class="range">
          ${field({ name: `hours.weekly.${index}.from`, label: `Opens (${name}${ranges.length > 1 ? ` ${n + 1}` : ''})`, type: 'time', value: range.from, error: errors[`hours.weekly.${index}.from`] ?? errors[`hours.weekly.${index}`], onInput: (from) => setRange(index, { from }) })}
          ${field({ name: `hours.weekly.${index}.to`, label: `Closes (${name}${ranges.length > 1 ? ` ${n + 1}` : ''})`, type: 'time', value: range.to === '24:00' ? '23:59' : range.to, error: errors[`hours.weekly.${index}.to`], onInput: (to) => setRange(index, { to }) })}
          <button type="button" @click=${() => this.patch({ weekly: d.weekly.filter((_, i) => i !== index) })}>Remove ${name}${ranges.length > 1 ? ` ${n + 1}` : ''}</button>
        </div>`,
      )}
      <button type="button" @click=${() => this.patch({ weekly: inWeekOrder([...d.weekly, { day, from: '09:00', to: '17:00' }]) })}>Add hours on ${name}</button>
    </fieldset>`;
  }

  private patch(patch: Partial<HandoffDraft>): void {
    this.draft = { ...this.draft!, ...patch };
    this.notice = '';
  }

  private async save(event: Event): Promise<void> {
    event.preventDefault();
    const d = this.draft!;
    const problems = handoffProblems(d);
    if (Object.keys(problems).length) {
      this.notice = 'Not saved.';
      await this.form.refuse(problems);
      return;
    }
    const id = this.botId;
    const saved = await this.form.submit(fieldKeys(d), () => this.client.handoff.updateSettings(id, handoffRequestOf(d)));
    if (id !== this.botId) return;
    if (!saved) {
      this.notice = 'Not saved.';
      return;
    }
    this.saved = saved.data;
    this.draft = handoffDraftOf(saved.data);
    this.notice = 'Handoff settings saved.';
    this.dispatchEvent(new Event('aicd-handoff-saved', { bubbles: true, composed: true }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-bot-handoff': AicdBotHandoff;
  }
}
