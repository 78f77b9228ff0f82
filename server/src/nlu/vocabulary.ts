/**
 * The out-of-vocabulary guard: an intent is refused when none of the message's content words
 * occurs in that intent's examples ("what is the weather on mars" shares only function words with
 * a "what is the price" intent). Function words are the service's own per language (text/); a
 * language without a list (Japanese, Arabic: no spaces or rich clitics) has no guard and relies on
 * the threshold alone. The classifier's tokens are lower case without accents, as those lists are.
 */
import { findBucket } from './classifier/vectorizer.ts';
import { tokenize, wordBucket } from './classifier/features.ts';
import type { Classifier } from './classifier/model.ts';
import { FUNCTION_WORDS, isLanguage } from '../text/languages.ts';

/**
 * True when the message has a content word that `intent`'s examples use, or has no content word
 * at all (or its language has no function-word list).
 */
export function knownToIntent(model: Classifier, language: string, text: string, intent: number): boolean {
  if (!isLanguage(language)) return true;
  const functionWords = FUNCTION_WORDS[language];
  const content = tokenize(text).filter((t) => !functionWords.has(t));
  if (content.length === 0) return true;
  const { rowStart, classIds } = model.linear;
  return content.some((token) => {
    const f = findBucket(model.vocabulary.buckets, wordBucket(token));
    if (f < 0) return false;
    for (let j = rowStart[f]!; j < rowStart[f + 1]!; j++) if (classIds[j] === intent) return true;
    return false;
  });
}
