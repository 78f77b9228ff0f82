/**
 * The bot editor's import and export of intents (a chunk of its own, loaded with the editor's
 * intents section): the files themselves are intents-file.ts.
 */
import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { Intent } from '../../client/index.js';
import { LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';
import { saveFile } from './conversation-export.js';
import { applyImport, intentsCsv, intentsJson, MAX_IMPORT_BYTES, readIntentsFile, type ImportMode, type ImportProblem } from './intents-file.js';

/** An import was checked and applied to the editor's intents (not saved yet: the owner saves and trains). */
export class IntentsImportedEvent extends Event {
  constructor(readonly intents: Intent[]) {
    super('aicd-intents-imported', { bubbles: true, composed: true });
  }
}

/**
 * Export the editor's intents as CSV or JSON; import a file into them, merged or replacing. A file
 * with any problem changes nothing: its problems are listed with their lines.
 *
 * @fires {IntentsImportedEvent} aicd-intents-imported
 */
@customElement('aicd-intents-transfer')
export class AicdIntentsTransfer extends LitElement {
  static override styles = [
    pageStyles,
    css`
      label.check {
        flex-direction: row;
        align-items: center;
        gap: 0.5rem;
        font-weight: 400;
      }
    `,
  ];

  /** The intents as the editor holds them now (what is exported, and what an import merges into). */
  @property({ attribute: false }) intents: Intent[] = [];
  /** The file name, without extension, of exports. */
  @property() filename = 'intents';

  @state() private mode: ImportMode = 'merge';
  @state() private problems: ImportProblem[] = [];
  @state() private status = '';
  private readonly i18n = new LocaleController(this);

  override render() {
    return html`<fieldset>
      <legend>${t('transfer.title')}</legend>
      <p class="hint">${t('transfer.hint')}</p>
      <div class="toolbar">
        <button type="button" @click=${() => saveFile(this, intentsCsv(this.intents, this.filename))}>${t('transfer.exportCsv')}</button>
        <button type="button" @click=${() => saveFile(this, intentsJson(this.intents, this.filename))}>${t('transfer.exportJson')}</button>
      </div>
      <fieldset>
        <legend>${t('transfer.whenImporting')}</legend>
        ${(['merge', 'replace'] as const).map(
          (mode) => html`<label class="check"
            ><input type="radio" name="import-mode" value=${mode} .checked=${this.mode === mode} @change=${() => (this.mode = mode)} />
            ${t(mode === 'merge' ? 'transfer.merge' : 'transfer.replace')}</label
          >`,
        )}
      </fieldset>
      <label for="import-file">${t('transfer.file')} <input id="import-file" name="import-file" type="file" accept=".csv,.json,text/csv,application/json" @change=${this.onFile} /></label>
      <p class="status" role="status">${this.status}</p>
      ${this.problems.length
        ? html`<div role="alert" class="error">
            <p>Nothing was imported: ${this.problems.length === 1 ? 'one problem' : `${this.problems.length} problems`}.</p>
            <ul class="import-problems">
              ${this.problems.slice(0, 50).map((p) => html`<li>${p.line === null ? p.message : t('transfer.atLine', { line: p.line, message: p.message })}</li>`)}
            </ul>
          </div>`
        : nothing}
    </fieldset>`;
  }

  private async onFile(event: Event): Promise<void> {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    this.problems = [];
    this.status = '';
    if (file.size > MAX_IMPORT_BYTES) {
      this.problems = [{ line: null, message: t('transfer.tooBig', { max: MAX_IMPORT_BYTES / 1024 / 1024 }) }];
      return;
    }
    const read = readIntentsFile(file.name, await file.text());
    const applied = read.problems.length ? read : applyImport(this.intents, read.intents, this.mode);
    input.value = ''; // the same file can be chosen again after fixing it
    if (applied.problems.length) {
      this.problems = applied.problems;
      return;
    }
    this.status = t(this.mode === 'merge' ? 'transfer.merged' : 'transfer.replaced', { count: read.intents.length, file: file.name });
    this.dispatchEvent(new IntentsImportedEvent(applied.intents));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-intents-transfer': AicdIntentsTransfer;
  }
}
