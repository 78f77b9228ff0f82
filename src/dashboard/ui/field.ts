/**
 * A labelled form control with its hint and its error, the error tied to the control with
 * `aria-invalid` and `aria-describedby` so a screen reader reads it when the control gets focus.
 * Every page's forms use it, so a validation error always appears the same way, at the field.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';

export interface FieldOptions {
  /** Unique within the page; also the id prefix of the hint and the error. */
  name: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  error?: string;
  hint?: string;
  /** `textarea` for multi-line text; `input` otherwise. */
  multiline?: boolean;
  rows?: number;
  type?: string;
  /** For `type: 'number'`: the range and step a spin button and assistive technology announce. */
  min?: number;
  max?: number;
  step?: number | 'any';
  /** The most characters the service takes: typing stops there instead of failing on save. */
  maxlength?: number;
  /** `select` options (value, label); when given, a select is rendered. */
  options?: readonly (readonly [string, string])[];
}

/** Ids must be valid and unique; field names contain dots (`training.intents.0.name`). */
function idOf(name: string): string {
  return `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

export function field(o: FieldOptions): TemplateResult {
  const id = idOf(o.name);
  const describedBy = [o.hint ? `${id}-hint` : '', o.error ? `${id}-error` : ''].filter(Boolean).join(' ') || nothing;
  const invalid = o.error ? 'true' : 'false';
  const onInput = (e: Event) => o.onInput((e.target as HTMLInputElement).value);
  const control = o.options
    ? html`<select id=${id} name=${o.name} aria-invalid=${invalid} aria-describedby=${describedBy} @change=${onInput}>
        ${o.options.map(([value, label]) => html`<option value=${value} ?selected=${value === o.value}>${label}</option>`)}
      </select>`
    : o.multiline
      ? html`<textarea id=${id} name=${o.name} rows=${o.rows ?? 4} aria-invalid=${invalid} aria-describedby=${describedBy} .value=${o.value} @input=${onInput}></textarea>`
      : html`<input id=${id} name=${o.name} type=${o.type ?? 'text'} min=${ifDefined(o.min)} max=${ifDefined(o.max)} step=${ifDefined(o.step)} maxlength=${ifDefined(o.maxlength)} aria-invalid=${invalid} aria-describedby=${describedBy} .value=${o.value} @input=${onInput} />`;
  return html`<label for=${id}>
    ${o.label} ${o.hint ? html`<span class="hint" id=${`${id}-hint`}>${o.hint}</span>` : nothing} ${control}
    ${o.error ? html`<span class="field-error" id=${`${id}-error`}>${o.error}</span>` : nothing}
  </label>`;
}

/** Focuses the first invalid control after a failed save, so keyboard users land on the problem. */
export async function focusFirstInvalid(host: { updateComplete: Promise<boolean>; renderRoot: ParentNode }): Promise<void> {
  await host.updateComplete;
  host.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}
