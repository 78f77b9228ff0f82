import { LitElement, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AiChatClient, FeedbackReport, PerformanceReport, SupportReport, TopicsReport, UsageReport } from '../../client/index.js';
import '../ui/chart.js';
import { errorMessage, type FieldErrors } from '../ui/errors.js';
import { browserTimeZone, feedbackSummary, formatDate, REASON_LABELS } from '../ui/format.js';
import pageStyles from '../ui/page.styles.js';
import styles from './overview-page.styles.js';
import { daysOf, lastDaysRange, localDay, rangeForm, rangeProblems, type OverviewRange } from './overview-range.js';
import { conversationLink, renderSupport } from './overview-support.js';

const percent = (share: number | null) => (share === null ? null : Math.round(share * 1000) / 10);

interface Overview {
  range: OverviewRange;
  days: string[];
  usage: UsageReport;
  /** One performance report per day (the service reports one period per call). */
  daily: PerformanceReport[];
  /** The whole range at once, for the tiles. */
  total: PerformanceReport;
  topics: TopicsReport;
  feedback: FeedbackReport;
  /** Satisfaction and the team's response times. */
  support: SupportReport;
  /** Bot and agent names by id (a deleted one shows its id). */
  names: Map<string, string>;
}

/**
 * How the bots are doing over a chosen period in a chosen time zone (default: the last 7 days in the
 * browser's), from the /v1 analytics reports: conversations and messages per day,
 * answered vs fallback replies, reply latency p50/p95, thumbs up and down (a table behind every
 * chart), the top intents, the top unanswered questions, and the feedback visitors gave in the
 * widget: per bot and agent, the reasons, the answers with the most thumbs down and the newest
 * comments (each linking to its conversation); then support: satisfaction ratings and the team's
 * response times (overview-support.ts). Bots and agents are shown by name.
 */
@customElement('aicd-overview-page')
export class AicdOverviewPage extends LitElement {
  static override styles = [pageStyles, styles];

  @property({ attribute: false }) client!: AiChatClient;
  /** Days shown at first, today included. */
  @property({ type: Number }) range = 7;

  @state() private data: Overview | null = null;
  @state() private error = '';
  /** The period as edited in its form; shown once submitted. */
  @state() private period: OverviewRange = lastDaysRange(7, browserTimeZone());
  @state() private periodErrors: FieldErrors = {};
  private run = 0;

  override connectedCallback(): void {
    super.connectedCallback();
    this.period = lastDaysRange(this.range, this.period.timeZone);
    void this.load(this.period);
    void import('./add-to-intent.js'); // "Add to intent…": a chunk of its own
  }

  private async load(range: OverviewRange): Promise<void> {
    const run = ++this.run;
    const days = daysOf(range);
    const { from, to, timeZone: tz } = range;
    try {
      const [usage, topics, feedback, support, total, names, ...daily] = await Promise.all([
        this.client.analytics.usage({ from, to, tz, granularity: 'day' }),
        this.client.analytics.topics({ from, to, tz, limit: 10 }),
        this.client.analytics.feedback({ from, to, tz, granularity: 'day', limit: 10 }),
        this.client.analytics.support({ from, to, tz, limit: 10 }),
        this.client.analytics.performance({ from, to, tz }),
        this.names(),
        ...days.map((day) => this.client.analytics.performance({ from: day, to: day, tz })),
      ]);
      if (run !== this.run) return;
      this.data = {
        range,
        names,
        days,
        usage: usage.data,
        topics: topics.data,
        feedback: feedback.data,
        support: support.data,
        total: total.data,
        daily: daily.map((r) => r.data),
      };
      this.error = '';
    } catch (error) {
      if (run === this.run) this.error = errorMessage(error);
    }
  }

  /** Names of the account's bots and agents (the first pages: a report names few). */
  private async names(): Promise<Map<string, string>> {
    const [bots, agents] = await Promise.all([this.client.bots.list({ limit: 100 }), this.client.agents.list({ limit: 100 })]);
    return new Map([...bots.data.items, ...agents.data.items].map((owner) => [owner.id, owner.name]));
  }

  private show(event: Event): void {
    event.preventDefault();
    this.periodErrors = rangeProblems(this.period);
    if (Object.keys(this.periodErrors).length) {
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    void this.load(this.period);
  }

  override render() {
    const shown = this.data?.range;
    return html`<h1>Overview</h1>
      ${rangeForm(this.period, this.periodErrors, (patch) => (this.period = { ...this.period, ...patch }), (e) => this.show(e))}
      <p class="hint" role="status">${shown ? `From ${shown.from} to ${shown.to} (${shown.timeZone.replaceAll('_', ' ')}), all bots and agents of the account.` : ''}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.data ? this.renderData(this.data) : this.error ? nothing : html`<p class="status" role="status">Loading…</p>`}`;
  }

  private renderData({ range, days, usage, daily, total, topics, feedback, support, names }: Overview) {
    const bucket = new Map(usage.series.map((b) => [localDay(b.start, range.timeZone), b]));
    const count = (key: 'conversations' | 'messages') => days.map((day) => bucket.get(day)?.[key] ?? 0);
    const ms = (v: number) => `${Math.round(v)} ms`;
    const pct = (v: number) => `${v} %`;
    return html`<dl class="tiles">
        <div><dt>Conversations</dt><dd>${usage.totals.conversations}</dd></div>
        <div><dt>Messages</dt><dd>${usage.totals.messages}</dd></div>
        <div><dt>Replies</dt><dd>${total.replies}</dd></div>
        <div><dt>Answered</dt><dd>${total.fallback_rate === null ? '—' : `${percent(1 - total.fallback_rate)} %`}</dd></div>
        <div><dt>Latency p95</dt><dd>${total.latency_ms.p95 === null ? '—' : ms(total.latency_ms.p95)}</dd></div>
        <div><dt>API requests</dt><dd>${usage.totals.requests}</dd></div>
      </dl>
      <div class="charts">
        <aicd-chart
          caption="Conversations and messages per day"
          .days=${days}
          .series=${[
            { label: 'Conversations', values: count('conversations'), color: '#1a56db' },
            { label: 'Messages', values: count('messages'), color: '#0e7c66' },
          ]}
        ></aicd-chart>
        <aicd-chart
          caption="Answered vs fallback replies (share per day)"
          .days=${days}
          .format=${pct}
          .series=${[
            { label: 'Answered', values: daily.map((r) => (r.fallback_rate === null ? null : percent(1 - r.fallback_rate))), color: '#0e7c66' },
            { label: 'Fallback', values: daily.map((r) => percent(r.fallback_rate)), color: '#b3261e' },
          ]}
        ></aicd-chart>
        <aicd-chart
          caption="Reply latency per day"
          .days=${days}
          .format=${ms}
          .series=${[
            { label: 'p50', values: daily.map((r) => r.latency_ms.p50), color: '#1a56db' },
            { label: 'p95', values: daily.map((r) => r.latency_ms.p95), color: '#9a3412' },
          ]}
        ></aicd-chart>
      </div>
      <div class="charts">
        <section aria-labelledby="intents-title">
          <h2 id="intents-title">Top intents</h2>
          ${topics.intents.length
            ? html`<table>
                <thead><tr><th scope="col">Intent</th><th scope="col">Replies</th></tr></thead>
                <tbody>${topics.intents.map((row) => html`<tr><td>${row.intent}</td><td>${row.count}</td></tr>`)}</tbody>
              </table>`
            : html`<p>No reply matched an intent in this period.</p>`}
        </section>
        <section aria-labelledby="unanswered-title">
          <h2 id="unanswered-title">Top unanswered questions</h2>
          ${topics.unanswered.length
            ? html`<table>
                <thead><tr><th scope="col">Question</th><th scope="col">Times</th><th scope="col">Last asked</th><th scope="col">Teach a bot</th></tr></thead>
                <tbody>
                  ${topics.unanswered.map(
                    (row) => html`<tr><td>${row.question}</td><td>${row.count}</td><td>${formatDate(row.last_asked_at)}</td>
                      <td><aicd-add-to-intent .client=${this.client} .question=${row.question}></aicd-add-to-intent></td></tr>`,
                  )}
                </tbody>
              </table>`
            : html`<p>Every question got an answer in this period.</p>`}
        </section>
      </div>
      ${this.renderFeedback(range, days, feedback, names)} ${renderSupport(support, names)}`;
  }

  /** Thumbs up and down per day (a chart with its table), per bot and agent, the reasons and the most downvoted answers. */
  private renderFeedback(range: OverviewRange, days: string[], feedback: FeedbackReport, names: Map<string, string>) {
    const bucket = new Map(feedback.series.map((b) => [localDay(b.start, range.timeZone), b]));
    const name = (id: string | null) => (id === null ? '—' : (names.get(id) ?? id));
    const per = (key: 'up' | 'down') => days.map((day) => bucket.get(day)?.[key] ?? 0);
    return html`<h2>Feedback</h2>
      <p class="hint">Thumbs up and down that visitors gave answers in the widget: ${feedback.totals.up} up, ${feedback.totals.down} down.</p>
      <div class="charts">
        <aicd-chart
          caption="Feedback per day"
          .days=${days}
          .series=${[
            { label: 'Thumbs up', values: per('up'), color: '#0e7c66' },
            { label: 'Thumbs down', values: per('down'), color: '#b3261e' },
          ]}
        ></aicd-chart>
        <section aria-labelledby="feedback-owners-title">
          <h2 id="feedback-owners-title">Feedback per bot and agent</h2>
          ${feedback.owners.length
            ? html`<table>
                <thead><tr><th scope="col">Bot</th><th scope="col">Agent</th><th scope="col">Up</th><th scope="col">Down</th></tr></thead>
                <tbody>${feedback.owners.map(
                  (row) => html`<tr><td>${name(row.bot_id)}</td><td>${name(row.agent_id)}</td><td>${row.up}</td><td>${row.down}</td></tr>`,
                )}</tbody>
              </table>`
            : html`<p>No feedback in this period.</p>`}
          ${feedback.reasons.length
            ? html`<h3>Reasons given with a thumbs down</h3>
                <table>
                  <thead><tr><th scope="col">Reason</th><th scope="col">Times</th></tr></thead>
                  <tbody>${feedback.reasons.map((row) => html`<tr><td>${REASON_LABELS[row.reason]}</td><td>${row.count}</td></tr>`)}</tbody>
                </table>`
            : nothing}
        </section>
      </div>
      <section aria-labelledby="downvoted-title">
        <h2 id="downvoted-title">Most downvoted answers</h2>
        ${feedback.most_downvoted.length
          ? html`<table>
              <thead><tr><th scope="col">Answer</th><th scope="col">Down</th><th scope="col">Up</th><th scope="col">Latest conversation</th><th scope="col">Last downvoted</th></tr></thead>
              <tbody>
                ${feedback.most_downvoted.map(
                  (row) => html`<tr><td>${row.answer}</td><td>${row.down}</td><td>${row.up}</td><td>${conversationLink(row.conversation_id)}</td><td>${formatDate(row.last_down_at)}</td></tr>`,
                )}
              </tbody>
            </table>`
          : html`<p>No answer got a thumbs down in this period.</p>`}
      </section>
      <section aria-labelledby="comments-title">
        <h2 id="comments-title">Visitors' comments</h2>
        ${feedback.comments.length
          ? html`<table class="comments">
              <thead><tr><th scope="col">Comment</th><th scope="col">Rating</th><th scope="col">On the answer</th><th scope="col">Bot or agent</th><th scope="col">Given</th><th scope="col">Conversation</th></tr></thead>
              <tbody>
                ${feedback.comments.map(
                  (row) => html`<tr><td>${row.comment}</td><td>${feedbackSummary(row)}</td><td>${row.answer}</td><td>${name(row.bot_id ?? row.agent_id)}</td><td>${formatDate(row.updated_at)}</td>
                    <td>${conversationLink(row.conversation_id)}</td></tr>`,
                )}
              </tbody>
            </table>`
          : html`<p>No comment in this period.</p>`}
      </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-overview-page': AicdOverviewPage;
  }
}
