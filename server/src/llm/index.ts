/**
 * The optional LLM behind `model.provider: "openai-compatible"`.
 *
 * ```ts
 * const llm = createLlmProvider(config.llm);   // null when no base URL is configured (deps.llm)
 * for await (const text of llm.complete({ system, messages, model, temperature, maxTokens, signal })) …
 * ```
 * Failures are `ServiceError`s with code `upstream_error` (502) or `upstream_timeout` (504).
 */
import { OpenAiCompatibleProvider, type LlmOptions, type LlmProvider } from './openai-compatible.ts';

export type { LlmMessage, LlmOptions, LlmProvider, LlmRequest } from './openai-compatible.ts';
export { DEFAULT_LLM_TIMEOUT_MS, OpenAiCompatibleProvider } from './openai-compatible.ts';

export function createLlmProvider(options: LlmOptions | undefined): LlmProvider | null {
  if (!options?.baseUrl) return null;
  return new OpenAiCompatibleProvider(options);
}
