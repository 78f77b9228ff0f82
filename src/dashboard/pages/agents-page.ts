import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { Agent, AgentExample, AiChatClient, CreateAgentRequest, TrainingJob } from '../../client/index.js';
import { client as dashboardClient } from '../api.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import { errorMessage } from '../ui/errors.js';
import { field } from '../ui/field.js';
import { FormState } from '../ui/form-state.js';
import { formatDate, languageOptions, splitList } from '../ui/format.js';
import { PagedList } from '../ui/paged-list.js';
import { pagedTable, rowActions } from '../ui/paged-table.js';
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
      <h1>Agents</h1>
      <p class="status" role="status">${this.notice}</p>
      <div class="toolbar"><button type="button" class="primary" @click=${() => this.openForm(null)}>New agent</button></div>
      ${this.editing !== null ? this.renderForm() : nothing} ${this.renderList()}
      <aicd-confirm-dialog></aicd-confirm-dialog>
    `;
  }

  private renderList() {
    return pagedTable(this.agents, {
      caption: 'Agents',
      empty: 'No agents yet.',
      columns: ['Name', 'Status', 'Updated', 'Actions'],
      row: (agent) => html`<tr>
        <td>${agent.name}</td>
        <td>${agent.status}</td>
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
      <h2 id="agent-form-heading">${creating ? 'New agent' : 'Edit agent'}</h2>
      ${this.form.formError ? html`<p class="error" role="alert">${this.form.formError}</p>` : nothing}
      ${text('name', 'Name')} ${text('description', 'Description')}
      ${text('instructions', 'Instructions', 'How the agent should answer (up to 8,000 characters).', true)}
      ${field({ name: 'language', label: 'Language', value: d.language, options: languageOptions(), error: this.form.errors.language, onInput: (language) => (this.draft = { ...this.draft, language }) })}
      ${text('tags', 'Knowledge tags', 'Comma-separated. Only entries with one of these tags ground its answers; empty: every entry.')}
      <fieldset>
        <legend>Example exchanges</legend>
        <p class="hint">Training turns each example into an intent; examples with the same answer share one.</p>
        ${this.form.errors.examples ? html`<p class="field-error">${this.form.errors.examples}</p>` : nothing}
        ${d.examples.map((example, i) => this.renderExample(example, i))}
        <button type="button" @click=${() => (this.draft = { ...d, examples: [...d.examples, { input: '', output: '' }] })}>Add example</button>
      </fieldset>
      <div class="toolbar">
        <button type="submit" class="primary" ?disabled=${this.form.saving}>${creating ? 'Create agent' : 'Save agent'}</button>
        <button type="button" @click=${() => (this.editing = null)}>Close</button>
      </div>
      ${creating ? nothing : this.renderTraining()}
    </form>`;
  }

  private renderExample(example: AgentExample, i: number) {
    const set = (key: keyof AgentExample) => (value: string) =>
      (this.draft = { ...this.draft, examples: this.draft.examples.map((e, j) => (j === i ? { ...e, [key]: value } : e)) });
    return html`<div class="example">
      ${field({ name: `examples.${i}.input`, label: `Visitor says (example ${i + 1})`, value: example.input, error: this.form.errors[`examples.${i}.input`], onInput: set('input') })}
      ${field({ name: `examples.${i}.output`, label: `Agent answers (example ${i + 1})`, value: example.output, error: this.form.errors[`examples.${i}.output`], onInput: set('output') })}
      <button type="button" class="danger" @click=${() => (this.draft = { ...this.draft, examples: this.draft.examples.filter((_, j) => j !== i) })} aria-label=${`Remove example ${i + 1}`}>Remove</button>
    </div>`;
  }

  private renderTraining() {
    const { job, error, active } = this.training;
    return html`<section class="training" aria-labelledby="training-heading">
      <h3 id="training-heading">Training</h3>
      <button type="button" class="primary" ?disabled=${active} @click=${() => this.training.train(this.editing!)}>Train</button>
      ${error ? html`<p class="error" role="alert">${error}</p>` : nothing}
      ${job ? this.renderJob(job, active) : html`<p class="status">Not trained from this page yet.</p>`}
      ${job?.status === 'succeeded'
        ? html`<aicd-intent-quality noun="agent" .load=${async () => (await this.client.agents.quality(job.agent_id)).data} version=${job.id}></aicd-intent-quality>`
        : nothing}
    </section>`;
  }

  private renderJob(job: TrainingJob, active: boolean) {
    const m = job.metrics;
    return html`<div role="status" aria-live="polite">
        <p>Job ${job.id}: <strong class="job-status">${job.status}</strong></p>
        ${active ? html`<progress aria-label="Training progress"></progress>` : nothing}
        ${job.error ? html`<p class="error">${job.error.message}</p>` : nothing}
      </div>
      ${m
        ? html`<table class="metrics">
            <caption>Training metrics</caption>
            <tbody>
              <tr><th scope="row">Intents</th><td>${m.intents}</td></tr>
              <tr><th scope="row">Examples</th><td>${m.examples}</td></tr>
              <tr><th scope="row">Held-out examples</th><td>${m.holdout_examples}</td></tr>
              <tr><th scope="row">Held-out accuracy</th><td>${m.holdout_accuracy === null ? '—' : `${Math.round(m.holdout_accuracy * 1000) / 10} %`}</td></tr>
              <tr><th scope="row">Training time</th><td>${m.training_ms} ms</td></tr>
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
    this.notice = id ? `Saved “${saved.data.name}”.` : `Created “${saved.data.name}”. Train it to use its examples.`;
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
      title: 'Delete this agent?',
      message: `“${agent.name}” will be deleted with its training jobs and every conversation started with it. This cannot be undone.`,
      confirmLabel: 'Delete agent',
    });
    if (!confirmed) return;
    try {
      await this.client.agents.delete(agent.id);
      this.agents.remove((a) => a.id === agent.id);
      if (this.editing === agent.id) this.editing = null;
      this.notice = `Deleted “${agent.name}”.`;
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
