/**
 * The overview's support section (`GET /v1/analytics/support`): satisfaction (the share of 4–5
 * ratings and the mean), the team's first-response and resolution times (median and mean), per
 * operator and per bot, and the newest rating comments, each linking to its conversation.
 */
import { html, type TemplateResult } from 'lit';
import type { SupportFigures, SupportReport } from '../../client/index.js';
import { formatNumber, t } from '../i18n/i18n.js';
import { csatSummary, formatDate, formatDuration } from '../ui/format.js';

/** A conversation id as a link to its page. */
export const conversationLink = (id: string) => html`<a href=${`#/conversations/${encodeURIComponent(id)}`}>${id}</a>`;

/** "82 %": the share of satisfied ratings; "—" with none. */
const satisfied = (f: SupportFigures) => (f.csat.satisfied_share === null ? t('format.none') : t('format.percent', { n: Math.round(f.csat.satisfied_share * 100) }));
const mean = (f: SupportFigures) => (f.csat.mean === null ? t('format.none') : formatNumber(f.csat.mean, { minimumFractionDigits: 1, maximumFractionDigits: 1 }));

const headers = () => html`<th scope="col">${t('overview.handoffs')}</th><th scope="col">${t('overview.ratings')}</th><th scope="col">${t('overview.satisfied')}</th><th scope="col">${t('overview.meanRating')}</th>
  <th scope="col">${t('overview.firstResponseMedian')}</th><th scope="col">${t('overview.resolutionMedian')}</th>`;

function cells(f: SupportFigures): TemplateResult {
  return html`<td>${f.handoffs}</td><td>${f.csat.responses}</td><td>${satisfied(f)}</td><td>${mean(f)}</td>
    <td>${formatDuration(f.first_response.median_seconds)}</td><td>${formatDuration(f.resolution.median_seconds)}</td>`;
}

/** `names`: bots by id (a deleted one shows its id). */
export function renderSupport(report: SupportReport, names: Map<string, string>): TemplateResult {
  const { totals } = report;
  const bot = (id: string | null) => (id === null ? t('overview.agents') : (names.get(id) ?? id));
  return html`<h2 id="support-title">${t('overview.support')}</h2>
    <p class="hint">${t('overview.supportHint')}</p>
    <dl class="tiles" aria-labelledby="support-title">
      <div><dt>${t('overview.csat')}</dt><dd>${satisfied(totals)}</dd></div>
      <div><dt>${t('overview.meanRating')}</dt><dd>${mean(totals)}</dd></div>
      <div><dt>${t('overview.ratings')}</dt><dd>${totals.csat.responses}</dd></div>
      <div><dt>${t('overview.firstResponse')}</dt><dd>${formatDuration(totals.first_response.median_seconds)}</dd></div>
      <div><dt>${t('overview.resolution')}</dt><dd>${formatDuration(totals.resolution.median_seconds)}</dd></div>
      <div><dt>${t('overview.handoffs')}</dt><dd>${totals.handoffs}</dd></div>
    </dl>
    <div class="charts">
      <section aria-labelledby="support-operators-title">
        <h2 id="support-operators-title">${t('overview.perOperator')}</h2>
        ${report.operators.length
          ? html`<table>
              <thead><tr><th scope="col">${t('overview.operator')}</th>${headers()}</tr></thead>
              <tbody>${report.operators.map((row) => html`<tr><td>${row.name}</td>${cells(row)}</tr>`)}</tbody>
            </table>`
          : html`<p>${t('overview.noOperator')}</p>`}
      </section>
      <section aria-labelledby="support-bots-title">
        <h2 id="support-bots-title">${t('overview.perBot')}</h2>
        ${report.bots.length
          ? html`<table>
              <thead><tr><th scope="col">${t('overview.bot')}</th>${headers()}</tr></thead>
              <tbody>${report.bots.map((row) => html`<tr><td>${bot(row.bot_id)}</td>${cells(row)}</tr>`)}</tbody>
            </table>`
          : html`<p>${t('overview.noSupport')}</p>`}
      </section>
    </div>
    <section aria-labelledby="csat-comments-title">
      <h2 id="csat-comments-title">${t('overview.csatComments')}</h2>
      ${report.comments.length
        ? html`<table class="csat-comments">
            <thead><tr><th scope="col">${t('overview.comment')}</th><th scope="col">${t('overview.rating')}</th><th scope="col">${t('overview.bot')}</th><th scope="col">${t('overview.given')}</th><th scope="col">${t('overview.conversation')}</th></tr></thead>
            <tbody>
              ${report.comments.map(
                (row) => html`<tr><td>${row.comment}</td><td>${csatSummary(row.rating)}</td><td>${row.bot_id ? bot(row.bot_id) : t('format.none')}</td>
                  <td>${formatDate(row.created_at)}</td><td>${conversationLink(row.conversation_id)}</td></tr>`,
              )}
            </tbody>
          </table>`
        : html`<p>${t('overview.noCsatComment')}</p>`}
    </section>`;
}
