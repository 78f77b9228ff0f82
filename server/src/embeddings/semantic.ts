/**
 * Semantic knowledge search, when an embeddings endpoint is configured and the database has
 * pgvector: entries are embedded in the background after they are written (a batch at a time, one
 * run per process), and a question is embedded at search time under a short deadline. Nothing here
 * ever fails a search: without a vector, an entry or a question is searched lexically.
 *
 * ```ts
 * const semantic = await openSemanticKnowledge(db, config.embeddings, logger); // null: not configured
 * semantic.status;                                  // 'ready' | 'unavailable' (no pgvector)
 * semantic.kick();                                  // after knowledge writes: embeds what is stale
 * await semantic.similar(accountId, { q, limit }); // Map entry id → cosine; empty on any failure
 * ```
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { batchesOf, EmbeddingsClient, EmbeddingsError, MAX_BATCH, type EmbeddingsClientDeps } from './client.ts';
import type { EmbeddingsOptions } from './options.ts';
import { EmbeddingStore, ensureVectorTable, type StaleEntry } from './store.ts';

export type SemanticStatus = 'ready' | 'unavailable';

export interface SimilarOptions {
  q: string;
  limit: number;
  tags?: string[];
  language?: string;
}

const DEFAULT_QUERY_TIMEOUT_MS = 1_500;
export const DEFAULT_MIN_SIMILARITY = 0.55;
/** Entry ids refused by the endpoint (at their current version) remembered so they do not block the queue. */
const MAX_REFUSED = 10_000;
/** A search asks for a background run at most this often (imports write entries without telling us). */
const SEARCH_KICK_MS = 10_000;

export class SemanticKnowledge {
  readonly client: EmbeddingsClient;
  private readonly store: EmbeddingStore;
  private running: Promise<void> | null = null;
  private again = false;
  private readonly stop = new AbortController();
  private readonly refused = new Set<string>();
  private lastSearchKick = -Infinity;
  private failing = false;
  /** Entries embedded by this process (for tests and diagnostics). */
  embedded = 0;

  constructor(
    db: Kysely<Database>,
    readonly options: EmbeddingsOptions,
    readonly status: SemanticStatus,
    private readonly logger: Logger,
    deps: EmbeddingsClientDeps = {},
  ) {
    this.client = new EmbeddingsClient(options, deps);
    this.store = new EmbeddingStore(db);
  }

  get minSimilarity(): number {
    return this.options.minSimilarity ?? DEFAULT_MIN_SIMILARITY;
  }

  /** Embeds every stale entry in the background; a run in progress goes round once more. */
  kick(): void {
    if (this.status !== 'ready' || this.stop.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = null;
      if (this.again) this.kick();
    });
  }

  /** Resolves when no background run is left (tests wait on it after writes). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    this.stop.abort();
    await this.running?.catch(() => undefined);
  }

  /**
   * The account's entries most similar to the question, cosine by entry id; empty when the
   * question could not be embedded in time, or anything else failed (the search stays lexical).
   */
  async similar(accountId: string, options: SimilarOptions): Promise<Map<string, number>> {
    if (this.status !== 'ready') return new Map();
    if (performance.now() - this.lastSearchKick > SEARCH_KICK_MS) {
      this.lastSearchKick = performance.now();
      this.kick();
    }
    try {
      const [vector] = await this.client.embed([options.q], {
        deadlineMs: this.options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
        signal: this.stop.signal,
      });
      const rows = await this.store.nearest(accountId, { model: this.client.model, vector: vector!, limit: options.limit, tags: options.tags, language: options.language });
      return new Map(rows.map((row) => [row.entryId, row.similarity]));
    } catch (error) {
      this.logger.debug('question not embedded: lexical search only', { error: describe(error) });
      return new Map();
    }
  }

  private async run(): Promise<void> {
    this.again = false;
    while (!this.stop.signal.aborted) {
      const entries = await this.store.stale(this.client.model, MAX_BATCH, [...this.refused]);
      if (entries.length === 0) break;
      // One request's worth: the byte cap may cut the batch short; the rest come next round.
      const batch = entries.slice(0, batchesOf(entries.map((e) => e.text))[0]!.length);
      if (!(await this.embedBatch(batch))) break;
    }
  }

  /** False when the endpoint is failing: the run ends, and the next write or search starts another. */
  private async embedBatch(batch: StaleEntry[]): Promise<boolean> {
    try {
      const vectors = await this.client.embed(batch.map((e) => e.text), { signal: this.stop.signal });
      await this.store.save(this.client.model, batch, vectors);
      this.embedded += batch.length;
      if (this.failing) this.logger.info('embeddings endpoint answers again', {});
      this.failing = false;
      return true;
    } catch (error) {
      if (this.stop.signal.aborted) return false;
      if (error instanceof EmbeddingsError && !error.retriable && batch.length > 1) {
        // One text the endpoint refuses must not hold the others back: try them one by one.
        for (const entry of batch) if (!(await this.embedBatch([entry]))) return false;
        return true;
      }
      if (error instanceof EmbeddingsError && !error.retriable) {
        if (this.refused.size >= MAX_REFUSED) this.refused.delete(this.refused.values().next().value!);
        this.refused.add(`${batch[0]!.id}:${batch[0]!.version}`);
        return true;
      }
      if (!this.failing) this.logger.error('entries not embedded: they are searched lexically until the endpoint answers', { error: describe(error) });
      this.failing = true;
      return false;
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The semantic search of this process, or null when no embeddings endpoint is configured. Without
 * pgvector in the database it is `unavailable` (logged once) and every search stays lexical.
 */
export async function openSemanticKnowledge(
  db: Kysely<Database>,
  options: EmbeddingsOptions | undefined,
  logger: Logger,
  deps: EmbeddingsClientDeps = {},
): Promise<SemanticKnowledge | null> {
  if (!options) return null;
  let available = false;
  try {
    available = await ensureVectorTable(db);
  } catch (error) {
    logger.error('embeddings storage could not be checked', { error: describe(error) });
  }
  if (!available) logger.error('pgvector is not installed in the database: knowledge search stays lexical (docs/embeddings.md)', {});
  const semantic = new SemanticKnowledge(db, options, available ? 'ready' : 'unavailable', logger, deps);
  semantic.kick();
  return semantic;
}
