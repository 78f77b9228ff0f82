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
import { browserTimeZone, timeZoneOptions, weekdayName } from '../ui/format.js';
import { labels, LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';

type Day = OpeningRange['day'];

/** The week from Monday; each named in the dashboard's language by `weekdayName`. */
export const DAYS: readonly Day[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** The request schema's bounds. */
const MAX_FALLBACKS = 20;

const REASONS = labels<HandoffUnavailableReason>({
  disabled: 'bots.handoffOff',
  outside_hours: 'bots.outsideHours',
  nobody_online: 'bots.nobodyOnline',
});

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

const dayIndex = (day: Day) => DAYS.indexOf(day);
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
    problems.after_fallbacks = t('bots.fallbacksRange', { max: MAX_FALLBACKS });
  }
  if (d.useHours) {
    if (!d.timeZone) problems['hours.time_zone'] = t('bots.chooseZone');
    if (d.weekly.length === 0) problems.hours = t('bots.addRange');
    d.weekly.forEach((range, i) => {
      if (!range.from) problems[`hours.weekly.${i}.from`] = t('bots.enterTime');
      else if (!range.to) problems[`hours.weekly.${i}.to`] = t('bots.enterTime');
      else if (minutes(range.to) <= minutes(range.from) && range.to !== '24:00') problems[`hours.weekly.${i}.to`] = t('bots.afterOpening');
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
  private readonly i18n = new LocaleController(this);
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
      <h2 id="handoff-heading">${t('bots.handoff')}</h2>
      ${this.loadError ? html`<p class="error" role="alert">${this.loadError}</p>` : nothing}
      ${d ? this.renderForm(d) : this.loadError ? nothing : html`<p class="status" role="status">${t('list.loading')}</p>`}
    </section>`;
  }

  private renderForm(d: HandoffDraft) {
    const errors = this.form.errors;
    return html`<form novalidate aria-labelledby="handoff-heading" @submit=${this.save}>
      ${this.form.formError ? html`<p class="error" role="alert">${this.form.formError}</p>` : nothing}
      <label class="check">
        <input type="checkbox" name="enabled" .checked=${d.enabled} @change=${(e: Event) => this.patch({ enabled: (e.target as HTMLInputElement).checked })} />
        ${t('bots.handoffOn')}
      </label>
      ${field({ name: 'after_fallbacks', label: t('bots.handoffAfter'), hint: t('bots.fallbacksHint', { max: MAX_FALLBACKS }), type: 'number', min: 1, max: MAX_FALLBACKS, step: 1, value: d.afterFallbacks, error: errors.after_fallbacks, onInput: (afterFallbacks) => this.patch({ afterFallbacks }) })}
      ${this.renderIntents(d, errors)} ${this.renderHours(d, errors)}
      <p class="hint" id="offline-hint">
        ${t('bots.offlineHint')}
      </p>
      ${this.saved ? html`<p class="hint">${t('bots.rightNow', { state: this.saved.available ? t('bots.available') : REASONS[this.saved.unavailable_reason ?? 'disabled'] })}</p>` : nothing}
      <div class="toolbar">
        <button type="submit" class="primary" ?disabled=${this.form.saving}>${t('bots.saveHandoff')}</button>
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
      <legend>${t('bots.handoffIntents')}</legend>
      ${errors.intents ? html`<p class="field-error" role="alert">${errors.intents}</p>` : nothing}
      ${names.length
        ? names.map(
            (name) => html`<label class="check">
              <input type="checkbox" name="intents" value=${name} .checked=${d.intents.includes(name)} @change=${onChange} />
              ${name}${this.intents.includes(name) ? nothing : html` <span class="hint">${t('bots.untrainedIntent')}</span>`}
            </label>`,
          )
        : html`<p class="hint">${t('bots.noIntents')}</p>`}
    </fieldset>`;
  }

  private renderHours(d: HandoffDraft, errors: FieldErrors) {
    return html`<fieldset>
      <legend>${t('bots.openingHours')}</legend>
      <label class="check">
        <input type="checkbox" name="use-hours" .checked=${d.useHours} @change=${(e: Event) => this.patch({ useHours: (e.target as HTMLInputElement).checked })} />
        ${t('bots.onlyInHours')}
      </label>
      ${errors.hours ? html`<p class="field-error" role="alert">${errors.hours}</p>` : nothing}
      ${d.useHours
        ? html`${field({ name: 'hours.time_zone', label: t('overview.timeZone'), value: d.timeZone, options: timeZoneOptions(d.timeZone), error: errors['hours.time_zone'], onInput: (timeZone) => this.patch({ timeZone }) })}
          ${DAYS.map((day, i) => this.renderDay(d, day, weekdayName(i), errors))}`
        : nothing}
    </fieldset>`;
  }

  private renderDay(d: HandoffDraft, day: Day, name: string, errors: FieldErrors) {
    const ranges = d.weekly.map((range, index) => ({ range, index })).filter(({ range }) => range.day === day);
    const setRange = (index: number, patch: Partial<OpeningRange>) => this.patch({ weekly: d.weekly.map((r, i) => (i === index ? { ...r, ...patch } : r)) });
    return html`<fieldset class="day">
      <legend>${name}</legend>
      ${ranges.length ? nothing : html`<p class="hint">${t('bots.closed')}</p>`}
      ${ranges.map(
        ({ range, index }, n) => {
          const which = ranges.length > 1 ? `${name} ${n + 1}` : name;
          return html`<div class="range">
          ${field({ name: `hours.weekly.${index}.from`, label: t('bots.opens', { day: which }), type: 'time', value: range.from, error: errors[`hours.weekly.${index}.from`] ?? errors[`hours.weekly.${index}`], onInput: (from) => setRange(index, { from }) })}
          ${field({ name: `hours.weekly.${index}.to`, label: t('bots.closes', { day: which }), type: 'time', value: range.to === '24:00' ? '23:59' : range.to, error: errors[`hours.weekly.${index}.to`], onInput: (to) => setRange(index, { to }) })}
          <button type="button" @click=${() => this.patch({ weekly: d.weekly.filter((_, i) => i !== index) })}>${t('bots.removeHours', { day: which })}</button>
        </div>`;
        },
      )}
      <button type="button" @click=${() => this.patch({ weekly: inWeekOrder([...d.weekly, { day, from: '09:00', to: '17:00' }]) })}>${t('bots.addHours', { day: name })}</button>
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
      this.notice = t('common.notSaved');
      await this.form.refuse(problems);
      return;
    }
    const id = this.botId;
    const saved = await this.form.submit(fieldKeys(d), () => this.client.handoff.updateSettings(id, handoffRequestOf(d)));
    if (id !== this.botId) return;
    if (!saved) {
      this.notice = t('common.notSaved');
      return;
    }
    this.saved = saved.data;
    this.draft = handoffDraftOf(saved.data);
    this.notice = t('bots.handoffSaved');
    this.dispatchEvent(new Event('aicd-handoff-saved', { bubbles: true, composed: true }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-bot-handoff': AicdBotHandoff;
  }
}
