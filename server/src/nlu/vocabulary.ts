/**
 * The out-of-vocabulary guard: an intent is refused when none of the message's content words
 * occurs in that intent's examples ("what is the weather on mars" shares only function words with
 * a "what is the price" intent). Function words are listed per language; a language without a list
 * (Japanese, Arabic: no spaces or rich clitics) has no guard and relies on the threshold alone.
 */
import { findBucket } from './classifier/vectorizer.ts';
import { tokenize, wordBucket } from './classifier/features.ts';
import type { Classifier } from './classifier/model.ts';

const FUNCTION_WORDS: Record<string, string[]> = {
  en: "a an the and or but is are was were be been am i me my mine you your yours he him his she her it its we us our they them their this that these those what which who whom whose where when why how do does did done can could will would shall should may might must have has had not no yes to of in on at by for with from about as into over under up down out off so if then than too very just also please there here s t d ll m re ve don doesn isn aren wasn any some all".split(' '),
  de: 'der die das den dem des ein eine einen einem einer eines und oder aber ist sind war bin bist seid wo was wer wie wann warum ich du er sie es wir ihr mich mir dich dir uns euch mein dein sein ihr von vom zu zum zur in im an am auf aus bei mit nach für über unter um nicht kein keine ja nein auch noch schon nur sehr so dann doch mal bitte denn hat habe haben wird werden kann können'.split(' '),
  fr: "le la les l un une des du de d et ou mais est sont suis es êtes sommes était où que qu quoi qui comment quand pourquoi je j tu il elle on nous vous ils elles me m te t se s mon ma mes ton ta tes son sa ses à au aux en dans sur sous pour par avec sans ne n pas plus ce c cet cette ces y a ai as avez avons ont très oui non".split(' '),
  es: 'el la los las un una unos unas y o pero es son soy eres somos está están estoy dónde donde qué que quién quien cómo como cuándo cuando por porque yo tú tu él ella nosotros vosotros ellos ellas me te se nos os mi mis su sus de del al a en con sin para sobre no sí si muy más ya también hay ha he has han lo le les'.split(' '),
};

/** Compared as the classifier's tokens are: lower case, no accents. */
const FUNCTION_WORD_SETS: Record<string, Set<string>> = Object.fromEntries(
  Object.entries(FUNCTION_WORDS).map(([language, words]) => [language, new Set(words.flatMap((w) => tokenize(w)))]),
);

/**
 * True when the message has a content word that `intent`'s examples use, or has no content word
 * at all (or its language has no function-word list).
 */
export function knownToIntent(model: Classifier, language: string, text: string, intent: number): boolean {
  const functionWords = FUNCTION_WORD_SETS[language];
  if (!functionWords) return true;
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
