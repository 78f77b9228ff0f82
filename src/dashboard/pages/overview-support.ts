/**
 * The overview's support section (`GET /v1/analytics/support`): satisfaction (the share of 4–5
 * ratings and the mean), the team's first-response and resolution times (median and mean), per
 * operator and per bot, and the newest rating comments, each linking to its conversation.
 */
import { html, type TemplateResult } from 'lit';
import type { SupportFigures, SupportReport } from '../../client/index.js';
import { csatSummary, formatDate, formatDuration } from '../ui/format.js';

/** A conversation id as a link to its page. */
export const conversationLink = (id: string) => html`<a href=${`#/conversations/${encodeURIComponent(id)}`}>${id}</a>`;

/** "82 %": the share of satisfied ratings; "—" with none. */
const satisfied = (f: SupportFigures) => (f.csat.satisfied_share === null ? '—' : `${Math.round(f.csat.satisfied_share * 100)} %`);
const mean = (f: SupportFigures) => (f.csat.mean === null ? '—' : f.csat.mean.toFixed(1));

const HEADERS = html`<th scope="col">Handoffs</th><th scope="col">Ratings</th><th scope="col">Satisfied (4–5)</th><th scope="col">Mean rating</th>
  <th scope="col">First response (median)</th><th scope="col">Resolution (median)</th>`;

function cells(f: SupportFigures): TemplateResult {
  return html`<td>${f.handoffs}</td><td>${f.csat.responses}</td><td>${satisfied(f)}</td><td>${mean(f)}</td>
    <td>${formatDuration(f.first_response.median_seconds)}</td><td>${formatDuration(f.resolution.median_seconds)}</td>`;
}

/** `names`: bots by id (a deleted one shows its id). */
export function renderSupport(report: SupportReport, names: Map<string, string>): TemplateResult {
  const { totals } = report;
  const bot = (id: string | null) => (id === null ? 'Agents' : (names.get(id) ?? id));
  return html`<h2 id="support-title">Support</h2>
    <p class="hint">Satisfaction ratings visitors gave in the widget after a conversation, and how fast the team answered the people who asked for one.</p>
    <dl class="tiles" aria-labelledby="support-title">
      <div><dt>CSAT</dt><dd>${satisfied(totals)}</dd></div>
      <div><dt>Mean rating</dt><dd>${mean(totals)}</dd></div>
      <div><dt>Ratings</dt><dd>${totals.csat.responses}</dd></div>
      <div><dt>First response</dt><dd>${formatDuration(totals.first_response.median_seconds)}</dd></div>
      <div><dt>Resolution</dt><dd>${formatDuration(totals.resolution.median_seconds)}</dd></div>
      <div><dt>Handoffs</dt><dd>${totals.handoffs}</dd></div>
    </dl>
    <div class="charts">
      <section aria-labelledby="support-operators-title">
        <h2 id="support-operators-title">Per operator</h2>
        ${report.operators.length
          ? html`<table>
              <thead><tr><th scope="col">Operator</th>${HEADERS}</tr></thead>
              <tbody>${report.operators.map((row) => html`<tr><td>${row.name}</td>${cells(row)}</tr>`)}</tbody>
            </table>`
          : html`<p>No operator took a conversation in this period.</p>`}
      </section>
      <section aria-labelledby="support-bots-title">
        <h2 id="support-bots-title">Per bot</h2>
        ${report.bots.length
          ? html`<table>
              <thead><tr><th scope="col">Bot</th>${HEADERS}</tr></thead>
              <tbody>${report.bots.map((row) => html`<tr><td>${bot(row.bot_id)}</td>${cells(row)}</tr>`)}</tbody>
            </table>`
          : html`<p>No rating and no handoff in this period.</p>`}
      </section>
    </div>
    <section aria-labelledby="csat-comments-title">
      <h2 id="csat-comments-title">Comments with a rating</h2>
      ${report.comments.length
        ? html`<table class="csat-comments">
            <thead><tr><th scope="col">Comment</th><th scope="col">Rating</th><th scope="col">Bot</th><th scope="col">Given</th><th scope="col">Conversation</th></tr></thead>
            <tbody>
              ${report.comments.map(
                (row) => html`<tr><td>${row.comment}</td><td>${csatSummary(row.rating)}</td><td>${row.bot_id ? bot(row.bot_id) : '—'}</td>
                  <td>${formatDate(row.created_at)}</td><td>${conversationLink(row.conversation_id)}</td></tr>`,
              )}
            </tbody>
          </table>`
        : html`<p>No rating came with a comment in this period.</p>`}
    </section>`;
}
