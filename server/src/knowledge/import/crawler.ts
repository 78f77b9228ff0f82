/**
 * The documents of a web import: one page and the same-host pages it links to (breadth first), or
 * the pages a sitemap lists (nested sitemaps followed), at most `maxPages`, each allowed by the
 * host's robots.txt (RFC 9309 via `robots-parser`; missing: all allowed, unreachable: none).
 * Every request goes through `fetchPage`'s checks.
 */
import { XMLParser } from 'fast-xml-parser';
import robotsParserModule from 'robots-parser';
import { formatOfMediaType, type ParsedDocument } from './documents.ts';
import { fetchPage, parseImportUrl, USER_AGENT, type FetchPolicy } from './fetcher.ts';
import { ImportIssueError, type ImportIssueCode } from './issue.ts';
import type { Parse } from './parser.ts';

/** One document of a source: read, or not (with why, and whether its entries stay until a later sync can read it). */
export type DocumentResult =
  | { key: string; url: string | null; document: ParsedDocument }
  | { key: string; url: string | null; issue: ImportIssueError; keepEntries: boolean };

/** Failures that may pass: the document's entries stay rather than vanish with one bad fetch. */
const TRANSIENT: ReadonlySet<ImportIssueCode> = new Set(['fetch_failed', 'fetch_timeout', 'http_error', 'robots_unavailable']);

export function resultOfIssue(key: string, url: string | null, issue: ImportIssueError): DocumentResult {
  return { key, url, issue, keepEntries: TRANSIENT.has(issue.code) };
}

const SITEMAP_TYPES = new Set(['application/xml', 'text/xml', 'application/rss+xml', 'text/plain']);
/** Nested sitemaps read at most (a sitemap index may list many). */
const MAX_SITEMAPS = 20;

export interface CrawlOptions {
  kind: 'url' | 'sitemap';
  url: string;
  maxPages: number;
  policy: FetchPolicy;
  /** Reads a fetched page (in the parsing thread). */
  parse: Parse;
  /** Called as pages are found, for progress. */
  onFound?: (count: number) => void;
}

type Robots = (url: URL) => boolean;

// robots-parser is CommonJS (`module.exports = robotsParser`) while its types declare an ES default
// export: under Node's ESM interop the default import is the function itself.
const robotsParser = robotsParserModule as unknown as (url: string, contents: string) => {
  isAllowed(url: string, userAgent?: string): boolean | undefined;
};

async function robotsOf(origin: URL, policy: FetchPolicy): Promise<Robots> {
  const robotsUrl = new URL('/robots.txt', origin);
  let page;
  try {
    page = await fetchPage(robotsUrl, policy, () => true);
  } catch (error) {
    if (error instanceof ImportIssueError && (error.code === 'fetch_failed' || error.code === 'fetch_timeout')) {
      throw new ImportIssueError('robots_unavailable', `${robotsUrl.href} could not be read (${error.message}); nothing is imported without it.`);
    }
    throw error;
  }
  if (page.status >= 400 && page.status < 500) return () => true; // no robots.txt: everything allowed
  if (page.status >= 500 || page.status < 200 || page.status >= 300) {
    throw new ImportIssueError('robots_unavailable', `${robotsUrl.href} answered ${page.status}; nothing is imported until it can be read.`);
  }
  const robots = robotsParser(robotsUrl.href, page.body.toString('utf8'));
  return (url) => robots.isAllowed(url.href, USER_AGENT) !== false;
}

/** Reads one page; throws `ImportIssueError` for anything but a 2xx page of an importable type. */
async function readPage(url: URL, options: CrawlOptions, robots: Robots): Promise<{ finalUrl: URL; document: ParsedDocument }> {
  if (!robots(url)) throw new ImportIssueError('robots_disallowed', `robots.txt of ${url.host} disallows ${url.pathname}.`);
  const page = await fetchPage(url, options.policy, (type) => formatOfMediaType(type) !== null);
  if (page.status === 404 || page.status === 410) throw new ImportIssueError('not_found', `${url.href} answered ${page.status}.`);
  if (page.status < 200 || page.status >= 300) throw new ImportIssueError('http_error', `${url.href} answered ${page.status}.`);
  const document = await options.parse(page.body, formatOfMediaType(page.mediaType)!, page.url.href, page.charset);
  return { finalUrl: page.url, document };
}

/** Same-host http(s) links of a page, without fragments; others are not followed. */
function linksOf(document: ParsedDocument, base: URL): URL[] {
  const urls: URL[] = [];
  for (const href of document.links) {
    try {
      const url = parseImportUrl(new URL(href, base).href);
      if (url.host === base.host) urls.push(url);
    } catch {
      // mailto:, javascript:, another scheme or a broken href: not a page of this site
    }
  }
  return urls;
}

/**
 * The documents of the source, in order. The import's own page or sitemap failing throws (the job
 * fails with its code); any other page failing is a result with its issue.
 */
export async function* crawl(options: CrawlOptions): AsyncGenerator<DocumentResult> {
  const start = parseImportUrl(options.url);
  const robots = await robotsOf(start, options.policy);
  if (options.kind === 'sitemap') {
    yield* crawlSitemap(start, options, robots);
    return;
  }
  const seen = new Set([start.href]);
  const beyond = new Set<string>();
  const queue = [start];
  options.onFound?.(1);
  let read = 0;
  while (queue.length && read < options.maxPages) {
    const url = queue.shift()!;
    read++;
    let page;
    try {
      page = await readPage(url, options, robots);
    } catch (error) {
      if (url === start) throw error;
      if (!(error instanceof ImportIssueError)) throw error;
      yield resultOfIssue(url.href, url.href, error);
      continue;
    }
    for (const link of linksOf(page.document, page.finalUrl)) {
      if (seen.has(link.href) || beyond.has(link.href)) continue;
      if (seen.size >= options.maxPages) beyond.add(link.href);
      else {
        seen.add(link.href);
        queue.push(link);
      }
    }
    options.onFound?.(seen.size);
    yield { key: url.href, url: page.finalUrl.href, document: page.document };
  }
  if (beyond.size) yield pageLimit(start, beyond.size, options.maxPages);
}

function pageLimit(start: URL, left: number, maxPages: number): DocumentResult {
  const issue = new ImportIssueError('page_limit', `${left} more page(s) found and not read: this import reads at most ${maxPages} (max_pages).`);
  return { key: start.href, url: null, issue, keepEntries: true };
}

async function* crawlSitemap(start: URL, options: CrawlOptions, robots: Robots): AsyncGenerator<DocumentResult> {
  const { pages, skipped, beyond } = await sitemapPages(start, options);
  options.onFound?.(pages.length + skipped.length);
  yield* skipped;
  if (beyond) yield pageLimit(start, beyond, options.maxPages);
  for (const url of pages) {
    try {
      const page = await readPage(url, options, robots);
      yield { key: url.href, url: page.finalUrl.href, document: page.document };
    } catch (error) {
      if (!(error instanceof ImportIssueError)) throw error;
      yield resultOfIssue(url.href, url.href, error);
    }
  }
}

const xml = new XMLParser({ ignoreAttributes: true, processEntities: true, isArray: (name) => name === 'url' || name === 'sitemap' });

/**
 * The same-host page URLs of a sitemap (or sitemap index), deduplicated, at most `maxPages`; the
 * entries refused (another host, another scheme) and how many were beyond the limit.
 */
async function sitemapPages(start: URL, options: CrawlOptions): Promise<{ pages: URL[]; skipped: DocumentResult[]; beyond: number }> {
  const pages = new Map<string, URL>();
  const skipped: DocumentResult[] = [];
  const beyond = new Set<string>();
  const sitemaps = [start];
  const read = new Set<string>();
  const take = (loc: unknown, into: (url: URL) => void) => {
    if (typeof loc !== 'string' || !loc.trim()) return;
    try {
      const url = parseImportUrl(loc.trim());
      if (url.host !== start.host) throw new ImportIssueError('other_host', `${url.href} is on another host than the sitemap (${start.host}).`);
      into(url);
    } catch (error) {
      if (!(error instanceof ImportIssueError)) throw error;
      skipped.push(resultOfIssue(loc.trim().slice(0, 2000), null, error));
    }
  };
  while (sitemaps.length && read.size < MAX_SITEMAPS) {
    const sitemap = sitemaps.shift()!;
    if (read.has(sitemap.href)) continue;
    read.add(sitemap.href);
    const page = await fetchPage(sitemap, options.policy, (type) => SITEMAP_TYPES.has(type));
    if (page.status === 404 || page.status === 410) throw new ImportIssueError('not_found', `${sitemap.href} answered ${page.status}.`);
    if (page.status < 200 || page.status >= 300) throw new ImportIssueError('http_error', `${sitemap.href} answered ${page.status}.`);
    let parsed: { urlset?: { url?: { loc?: unknown }[] }; sitemapindex?: { sitemap?: { loc?: unknown }[] } };
    try {
      parsed = xml.parse(page.body.toString('utf8'));
    } catch (error) {
      throw new ImportIssueError('unreadable_document', `${sitemap.href} is not a readable sitemap (${(error as Error).message}).`);
    }
    if (!parsed.urlset && !parsed.sitemapindex) throw new ImportIssueError('unreadable_document', `${sitemap.href} is neither a urlset nor a sitemap index.`);
    for (const { loc } of parsed.sitemapindex?.sitemap ?? []) take(loc, (url) => sitemaps.push(url));
    for (const { loc } of parsed.urlset?.url ?? []) {
      take(loc, (url) => {
        if (pages.has(url.href)) return;
        if (pages.size < options.maxPages) pages.set(url.href, url);
        else beyond.add(url.href);
      });
    }
  }
  return { pages: [...pages.values()], skipped, beyond: beyond.size };
}
