import { LitElement, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AiChatClient, FeedbackReport, PerformanceReport, SupportReport, TopicsReport, UsageReport } from '../../client/index.js';
import '../ui/chart.js';
import { errorMessage, type FieldErrors } from '../ui/errors.js';
import { browserTimeZone, feedbackSummary, formatDate, REASON_LABELS } from '../ui/format.js';
import { LocaleController, t } from '../i18n/i18n.js';
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
  private readonly i18n = new LocaleController(this);
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
    return html`<h1>${t('nav.overview')}</h1>
      ${rangeForm(this.period, this.periodErrors, (patch) => (this.period = { ...this.period, ...patch }), (e) => this.show(e))}
      <p class="hint" role="status">${shown ? t('overview.shown', { from: shown.from, to: shown.to, zone: shown.timeZone.replaceAll('_', ' ') }) : ''}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.data ? this.renderData(this.data) : this.error ? nothing : html`<p class="status" role="status">${t('list.loading')}</p>`}`;
  }

  private renderData({ range, days, usage, daily, total, topics, feedback, support, names }: Overview) {
    const bucket = new Map(usage.series.map((b) => [localDay(b.start, range.timeZone), b]));
    const count = (key: 'conversations' | 'messages') => days.map((day) => bucket.get(day)?.[key] ?? 0);
    const ms = (v: number) => t('format.ms', { n: Math.round(v) });
    const pct = (v: number) => t('format.percent', { n: v });
    return html`<dl class="tiles">
        <div><dt>${t('overview.conversations')}</dt><dd>${usage.totals.conversations}</dd></div>
        <div><dt>${t('overview.messages')}</dt><dd>${usage.totals.messages}</dd></div>
        <div><dt>${t('overview.replies')}</dt><dd>${total.replies}</dd></div>
        <div><dt>${t('overview.answered')}</dt><dd>${total.fallback_rate === null ? t('format.none') : pct(percent(1 - total.fallback_rate)!)}</dd></div>
        <div><dt>${t('overview.latencyP95')}</dt><dd>${total.latency_ms.p95 === null ? t('format.none') : ms(total.latency_ms.p95)}</dd></div>
        <div><dt>${t('overview.requests')}</dt><dd>${usage.totals.requests}</dd></div>
      </dl>
      <div class="charts">
        <aicd-chart
          caption=${t('overview.perDay')}
          .days=${days}
          .series=${[
            { label: t('overview.conversations'), values: count('conversations'), color: '#1a56db' },
            { label: t('overview.messages'), values: count('messages'), color: '#0e7c66' },
          ]}
        ></aicd-chart>
        <aicd-chart
          caption=${t('overview.answeredVsFallback')}
          .days=${days}
          .format=${pct}
          .series=${[
            { label: t('overview.answered'), values: daily.map((r) => (r.fallback_rate === null ? null : percent(1 - r.fallback_rate))), color: '#0e7c66' },
            { label: t('overview.fallback'), values: daily.map((r) => percent(r.fallback_rate)), color: '#b3261e' },
          ]}
        ></aicd-chart>
        <aicd-chart
          caption=${t('overview.latencyPerDay')}
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
          <h2 id="intents-title">${t('overview.topIntents')}</h2>
          ${topics.intents.length
            ? html`<table>
                <thead><tr><th scope="col">${t('overview.intent')}</th><th scope="col">${t('overview.replies')}</th></tr></thead>
                <tbody>${topics.intents.map((row) => html`<tr><td>${row.intent}</td><td>${row.count}</td></tr>`)}</tbody>
              </table>`
            : html`<p>${t('overview.noIntent')}</p>`}
        </section>
        <section aria-labelledby="unanswered-title">
          <h2 id="unanswered-title">${t('overview.topUnanswered')}</h2>
          ${topics.unanswered.length
            ? html`<table>
                <thead><tr><th scope="col">${t('overview.question')}</th><th scope="col">${t('overview.times')}</th><th scope="col">${t('overview.lastAsked')}</th><th scope="col">${t('overview.teach')}</th></tr></thead>
                <tbody>
                  ${topics.unanswered.map(
                    (row) => html`<tr><td>${row.question}</td><td>${row.count}</td><td>${formatDate(row.last_asked_at)}</td>
                      <td><aicd-add-to-intent .client=${this.client} .question=${row.question}></aicd-add-to-intent></td></tr>`,
                  )}
                </tbody>
              </table>`
            : html`<p>${t('overview.allAnswered')}</p>`}
        </section>
      </div>
      ${this.renderFeedback(range, days, feedback, names)} ${renderSupport(support, names)}`;
  }

  /** Thumbs up and down per day (a chart with its table), per bot and agent, the reasons and the most downvoted answers. */
  private renderFeedback(range: OverviewRange, days: string[], feedback: FeedbackReport, names: Map<string, string>) {
    const bucket = new Map(feedback.series.map((b) => [localDay(b.start, range.timeZone), b]));
    const name = (id: string | null) => (id === null ? t('format.none') : (names.get(id) ?? id));
    const per = (key: 'up' | 'down') => days.map((day) => bucket.get(day)?.[key] ?? 0);
    return html`<h2>${t('overview.feedback')}</h2>
      <p class="hint">${t('overview.feedbackHint', { up: feedback.totals.up, down: feedback.totals.down })}</p>
      <div class="charts">
        <aicd-chart
          caption=${t('overview.feedbackPerDay')}
          .days=${days}
          .series=${[
            { label: t('overview.thumbsUp'), values: per('up'), color: '#0e7c66' },
            { label: t('overview.thumbsDown'), values: per('down'), color: '#b3261e' },
          ]}
        ></aicd-chart>
        <section aria-labelledby="feedback-owners-title">
          <h2 id="feedback-owners-title">${t('overview.feedbackPerOwner')}</h2>
          ${feedback.owners.length
            ? html`<table>
                <thead><tr><th scope="col">${t('overview.bot')}</th><th scope="col">${t('overview.agent')}</th><th scope="col">${t('overview.up')}</th><th scope="col">${t('overview.down')}</th></tr></thead>
                <tbody>${feedback.owners.map(
                  (row) => html`<tr><td>${name(row.bot_id)}</td><td>${name(row.agent_id)}</td><td>${row.up}</td><td>${row.down}</td></tr>`,
                )}</tbody>
              </table>`
            : html`<p>${t('overview.noFeedback')}</p>`}
          ${feedback.reasons.length
            ? html`<h3>${t('overview.reasons')}</h3>
                <table>
                  <thead><tr><th scope="col">${t('overview.reason')}</th><th scope="col">${t('overview.times')}</th></tr></thead>
                  <tbody>${feedback.reasons.map((row) => html`<tr><td>${REASON_LABELS[row.reason]}</td><td>${row.count}</td></tr>`)}</tbody>
                </table>`
            : nothing}
        </section>
      </div>
      <section aria-labelledby="downvoted-title">
        <h2 id="downvoted-title">${t('overview.mostDownvoted')}</h2>
        ${feedback.most_downvoted.length
          ? html`<table>
              <thead><tr><th scope="col">${t('overview.answer')}</th><th scope="col">${t('overview.down')}</th><th scope="col">${t('overview.up')}</th><th scope="col">${t('overview.latestConversation')}</th><th scope="col">${t('overview.lastDownvoted')}</th></tr></thead>
              <tbody>
                ${feedback.most_downvoted.map(
                  (row) => html`<tr><td>${row.answer}</td><td>${row.down}</td><td>${row.up}</td><td>${conversationLink(row.conversation_id)}</td><td>${formatDate(row.last_down_at)}</td></tr>`,
                )}
              </tbody>
            </table>`
          : html`<p>${t('overview.noDownvote')}</p>`}
      </section>
      <section aria-labelledby="comments-title">
        <h2 id="comments-title">${t('overview.comments')}</h2>
        ${feedback.comments.length
          ? html`<table class="comments">
              <thead><tr><th scope="col">${t('overview.comment')}</th><th scope="col">${t('overview.rating')}</th><th scope="col">${t('overview.onAnswer')}</th><th scope="col">${t('overview.owner')}</th><th scope="col">${t('overview.given')}</th><th scope="col">${t('overview.conversation')}</th></tr></thead>
              <tbody>
                ${feedback.comments.map(
                  (row) => html`<tr><td>${row.comment}</td><td>${feedbackSummary(row)}</td><td>${row.answer}</td><td>${name(row.bot_id ?? row.agent_id)}</td><td>${formatDate(row.updated_at)}</td>
                    <td>${conversationLink(row.conversation_id)}</td></tr>`,
                )}
              </tbody>
            </table>`
          : html`<p>${t('overview.noComment')}</p>`}
      </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-overview-page': AicdOverviewPage;
  }
}
