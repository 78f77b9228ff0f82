/**
 * Configuration of the optional embeddings endpoint (`AI_CHAT_EMBEDDINGS_*`). Without a model
 * name there is none, and knowledge search and intents stay lexical.
 */

export interface EmbeddingsOptions {
  /** OpenAI-compatible base URL, e.g. `http://127.0.0.1:11434/v1`; `POST {baseUrl}/embeddings`. */
  baseUrl: string;
  apiKey?: string;
  /** The embedding model, e.g. `text-embedding-3-small` or `nomic-embed-text`. */
  model: string;
  /** One background request (entries, intent examples) longer than this is given up. Default 30 s. */
  timeoutMs?: number;
  /** The question's embedding at search time, retries included; past it the answer is lexical. Default 1.5 s. */
  queryTimeoutMs?: number;
  /**
   * The cosine similarity at which a passage is as likely to answer as not (relevance 0.5, the
   * default gate). It depends on the model: unrelated texts score about 0.1–0.3 with OpenAI's
   * `text-embedding-3-*`, higher with some open models. Default 0.55.
   */
  minSimilarity?: number;
  /** Retries of a request answered 429 / 5xx or not at all. Default 2. */
  maxRetries?: number;
}

function positive(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/**
 * `AI_CHAT_EMBEDDINGS_BASE_URL`, `_API_KEY`, `_MODEL`, `_TIMEOUT_MS`, `_QUERY_TIMEOUT_MS`,
 * `_MIN_SIMILARITY`. With a model but no base URL of its own, the LLM's (`AI_CHAT_LLM_BASE_URL`)
 * serves, with the LLM's key unless one is given. The LLM's key is never sent to another host.
 */
export function embeddingsOptionsFromEnv(env: NodeJS.ProcessEnv): EmbeddingsOptions | undefined {
  const model = env.AI_CHAT_EMBEDDINGS_MODEL?.trim();
  const own = env.AI_CHAT_EMBEDDINGS_BASE_URL?.trim();
  const baseUrl = own || env.AI_CHAT_LLM_BASE_URL?.trim();
  if (!model || !baseUrl) return undefined;
  const apiKey = env.AI_CHAT_EMBEDDINGS_API_KEY || (own ? undefined : env.AI_CHAT_LLM_API_KEY) || undefined;
  const minSimilarity = positive(env.AI_CHAT_EMBEDDINGS_MIN_SIMILARITY);
  return {
    baseUrl,
    apiKey,
    model,
    timeoutMs: positive(env.AI_CHAT_EMBEDDINGS_TIMEOUT_MS),
    queryTimeoutMs: positive(env.AI_CHAT_EMBEDDINGS_QUERY_TIMEOUT_MS),
    minSimilarity: minSimilarity !== undefined && minSimilarity < 1 ? minSimilarity : undefined,
  };
}
