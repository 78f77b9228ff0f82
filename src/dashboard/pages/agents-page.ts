import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { Agent, AgentExample, AgentStatus, AiChatClient, CreateAgentRequest, TrainingJob, TrainingJobStatus } from '../../client/index.js';
import { client as dashboardClient } from '../api.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import { errorMessage } from '../ui/errors.js';
import { field } from '../ui/field.js';
import { FormState } from '../ui/form-state.js';
import { formatDate, languageOptions, splitList } from '../ui/format.js';
import { PagedList } from '../ui/paged-list.js';
import { pagedTable, rowActions } from '../ui/paged-table.js';
import { labels, LocaleController, t, tParts } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';
import styles from './agents-page.styles.js';
import { TrainingJobController } from './training-job.js';

interface Draft {
  name: string;
  description: string;
  instructions: string;
  language: string;
  tags: string;
  examples: AgentExample[];
}

const EMPTY: Draft = { name: '', description: '', instructions: '', language: 'en', tags: '', examples: [{ input: '', output: '' }] };

const AGENT_STATUS = labels<AgentStatus>({ draft: 'agents.draft', training: 'botStatus.training', ready: 'botStatus.ready', failed: 'botStatus.failed' });
const JOB_STATUS = labels<TrainingJobStatus>({ queued: 'job.queued', running: 'job.running', succeeded: 'job.succeeded', failed: 'job.failed' });

/**
 * Agents: the list, a form to create or edit one (its instructions, example exchanges and knowledge
 * scope), and training: the job's progress while it runs and its metrics when it is done.
 */
@customElement('aicd-agents-page')
export class AicdAgentsPage extends LitElement {
  static override styles = [pageStyles, styles];

  /** The /v1 client; the signed-in session's (`/dashboard/api/v1`) unless a host or a test passes another. */
  @property({ attribute: false }) client: AiChatClient = dashboardClient;

  /** null: no form; '': a new agent; else the id of the agent being edited. */
  @state() private editing: string | null = null;
  @state() private draft: Draft = EMPTY;
  @state() private notice = '';

  @query('aicd-confirm-dialog') private confirmDialog!: AicdConfirmDialog;

  private readonly form = new FormState(this);
  private readonly i18n = new LocaleController(this);
  private readonly agents = new PagedList<Agent>(this, (cursor) => this.client.agents.list({ cursor, limit: 50 }).then((r) => r.data));
  private readonly training = new TrainingJobController(this, () => this.client, (job) => void this.refresh(job.agent_id));

  override connectedCallback(): void {
    super.connectedCallback();
    void import('./intent-quality.js'); // the quality report: a chunk of its own
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('client') && this.client) void this.agents.reload();
  }

  override render() {
    return html`
      <h1>${t('nav.agents')}</h1>
      <p class="status" role="status">${this.notice}</p>
      <div class="toolbar"><button type="button" class="primary" @click=${() => this.openForm(null)}>${t('agents.new')}</button></div>
      ${this.editing !== null ? this.renderForm() : nothing} ${this.renderList()}
      <aicd-confirm-dialog></aicd-confirm-dialog>
    `;
  }

  private renderList() {
    return pagedTable(this.agents, {
      caption: t('nav.agents'),
      empty: t('agents.none'),
      columns: [t('common.name'), t('common.status'), t('common.updated'), t('keys.actions')],
      row: (agent) => html`<tr>
        <td>${agent.name}</td>
        <td>${AGENT_STATUS[agent.status]}</td>
        <td>${formatDate(agent.updated_at)}</td>
        ${rowActions(agent.name, () => this.openForm(agent), () => this.confirmDelete(agent))}
      </tr>`,
    });
  }

  private renderForm() {
    const creating = this.editing === '';
    const d = this.draft;
    const text = (name: keyof Omit<Draft, 'examples'>, label: string, hint = '', multiline = false) =>
      field({ name, label, hint, multiline, value: d[name], error: this.form.errors[name === 'tags' ? 'knowledge' : name], onInput: (value) => (this.draft = { ...this.draft, [name]: value }) });
    return html`<form class="editor" novalidate @submit=${this.save} aria-labelledby="agent-form-heading">
      <h2 id="agent-form-heading">${t(creating ? 'agents.new' : 'agents.edit')}</h2>
      ${this.form.formError ? html`<p class="error" role="alert">${this.form.formError}</p>` : nothing}
      ${text('name', t('common.name'))} ${text('description', t('common.description'))}
      ${text('instructions', t('agents.instructions'), t('agents.instructionsHint'), true)}
      ${field({ name: 'language', label: t('common.language'), value: d.language, options: languageOptions(), error: this.form.errors.language, onInput: (language) => (this.draft = { ...this.draft, language }) })}
      ${text('tags', t('agents.tags'), t('agents.tagsHint'))}
      <fieldset>
        <legend>${t('agents.examples')}</legend>
        <p class="hint">${t('agents.examplesHint')}</p>
        ${this.form.errors.examples ? html`<p class="field-error">${this.form.errors.examples}</p>` : nothing}
        ${d.examples.map((example, i) => this.renderExample(example, i))}
        <button type="button" @click=${() => (this.draft = { ...d, examples: [...d.examples, { input: '', output: '' }] })}>${t('addIntent.add')}</button>
      </fieldset>
      <div class="toolbar">
        <button type="submit" class="primary" ?disabled=${this.form.saving}>${t(creating ? 'agents.create' : 'agents.save')}</button>
        <button type="button" @click=${() => (this.editing = null)}>${t('addIntent.close')}</button>
      </div>
      ${creating ? nothing : this.renderTraining()}
    </form>`;
  }

  private renderExample(example: AgentExample, i: number) {
    const set = (key: keyof AgentExample) => (value: string) =>
      (this.draft = { ...this.draft, examples: this.draft.examples.map((e, j) => (j === i ? { ...e, [key]: value } : e)) });
    return html`<div class="example">
      ${field({ name: `examples.${i}.input`, label: t('agents.visitorSays', { n: i + 1 }), value: example.input, error: this.form.errors[`examples.${i}.input`], onInput: set('input') })}
      ${field({ name: `examples.${i}.output`, label: t('agents.agentAnswers', { n: i + 1 }), value: example.output, error: this.form.errors[`examples.${i}.output`], onInput: set('output') })}
      <button type="button" class="danger" @click=${() => (this.draft = { ...this.draft, examples: this.draft.examples.filter((_, j) => j !== i) })} aria-label=${t('agents.removeExample', { n: i + 1 })}>${t('common.remove')}</button>
    </div>`;
  }

  private renderTraining() {
    const { job, error, active } = this.training;
    return html`<section class="training" aria-labelledby="training-heading">
      <h3 id="training-heading">${t('agents.training')}</h3>
      <button type="button" class="primary" ?disabled=${active} @click=${() => this.training.train(this.editing!)}>${t('agents.train')}</button>
      ${error ? html`<p class="error" role="alert">${error}</p>` : nothing}
      ${job ? this.renderJob(job, active) : html`<p class="status">${t('agents.notTrained')}</p>`}
      ${job?.status === 'succeeded'
        ? html`<aicd-intent-quality noun="agent" .load=${async () => (await this.client.agents.quality(job.agent_id)).data} version=${job.id}></aicd-intent-quality>`
        : nothing}
    </section>`;
  }

  private renderJob(job: TrainingJob, active: boolean) {
    const m = job.metrics;
    return html`<div role="status" aria-live="polite">
        <p>${tParts('agents.job', { id: job.id, status: html`<strong class="job-status">${JOB_STATUS[job.status]}</strong>` })}</p>
        ${active ? html`<progress aria-label=${t('agents.progress')}></progress>` : nothing}
        ${job.error ? html`<p class="error">${job.error.message}</p>` : nothing}
      </div>
      ${m
        ? html`<table class="metrics">
            <caption>${t('agents.metrics')}</caption>
            <tbody>
              <tr><th scope="row">${t('bots.intents')}</th><td>${m.intents}</td></tr>
              <tr><th scope="row">${t('quality.examples')}</th><td>${m.examples}</td></tr>
              <tr><th scope="row">${t('agents.heldOut')}</th><td>${m.holdout_examples}</td></tr>
              <tr><th scope="row">${t('agents.heldOutAccuracy')}</th><td>${m.holdout_accuracy === null ? t('format.none') : t('format.percent', { n: Math.round(m.holdout_accuracy * 1000) / 10 })}</td></tr>
              <tr><th scope="row">${t('agents.time')}</th><td>${t('format.ms', { n: m.training_ms })}</td></tr>
            </tbody>
          </table>`
        : nothing}`;
  }

  private async openForm(agent: Agent | null): Promise<void> {
    this.editing = agent?.id ?? '';
    this.form.reset();
    this.draft = agent
      ? {
          name: agent.name,
          description: agent.description,
          instructions: agent.instructions,
          language: agent.language,
          tags: (agent.knowledge.tags ?? []).join(', '),
          examples: agent.examples.length ? agent.examples : [{ input: '', output: '' }],
        }
      : EMPTY;
    this.training.reset();
    if (agent?.latest_job_id) {
      try {
        this.training.reset((await this.client.agents.job(agent.id, agent.latest_job_id)).data);
      } catch {
        // No job to show: the Train button still works.
      }
    }
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('.editor input')?.focus();
  }

  private body(): CreateAgentRequest {
    const d = this.draft;
    return {
      name: d.name,
      description: d.description,
      instructions: d.instructions,
      language: d.language,
      knowledge: { tags: splitList(d.tags) },
      // A row left entirely empty is a spare row, not an example the user wrote.
      examples: d.examples.filter((e) => e.input.trim() || e.output.trim()),
    };
  }

  private async save(event: Event): Promise<void> {
    event.preventDefault();
    const id = this.editing;
    if (id === null) return;
    const body = this.body();
    const fields = ['name', 'description', 'instructions', 'language', 'knowledge', 'examples', ...this.draft.examples.flatMap((_, i) => [`examples.${i}.input`, `examples.${i}.output`])];
    const saved = await this.form.submit(fields, () => (id ? this.client.agents.update(id, body) : this.client.agents.create(body)));
    if (!saved) return;
    this.agents.upsert(saved.data, (a, b) => a.id === b.id);
    this.notice = t(id ? 'agents.saved' : 'agents.created', { name: saved.data.name });
    if (!id) this.editing = saved.data.id; // stay on the form: training is the next step
  }

  /** The list shows the agent's new status once its training job is done. */
  private async refresh(agentId: string): Promise<void> {
    try {
      this.agents.upsert((await this.client.agents.get(agentId)).data, (a, b) => a.id === b.id);
    } catch {
      // The list keeps the old status; the job's own status is shown next to the Train button.
    }
  }

  private async confirmDelete(agent: Agent): Promise<void> {
    const confirmed = await this.confirmDialog.ask({
      title: t('agents.deleteTitle'),
      message: t('agents.deleteMessage', { name: agent.name }),
      confirmLabel: t('agents.delete'),
    });
    if (!confirmed) return;
    try {
      await this.client.agents.delete(agent.id);
      this.agents.remove((a) => a.id === agent.id);
      if (this.editing === agent.id) this.editing = null;
      this.notice = t('bots.deleted', { name: agent.name });
    } catch (error) {
      this.notice = errorMessage(error);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-agents-page': AicdAgentsPage;
  }
}
