/**
 * The out-of-vocabulary guard. nlp.js's classifier ignores words it never saw, so "what is the
 * weather on mars" scores 0.99 for a "what is the price" intent: only the function words matched.
 * We refuse an intent when none of the message's content words occurs in that intent's examples.
 * nlp.js ships a stopword list for English only; the short lists below cover de/fr/es.
 */
const FUNCTION_WORDS: Record<string, string[]> = {
  de: 'der die das den dem des ein eine einen einem einer eines und oder aber ist sind war bin bist seid wo was wer wie wann warum ich du er sie es wir ihr mich mir dich dir uns euch mein dein sein ihr von vom zu zum zur in im an am auf aus bei mit nach für über unter um nicht kein keine ja nein auch noch schon nur sehr so dann doch mal bitte denn hat habe haben wird werden kann können'.split(' '),
  fr: "le la les l un une des du de d et ou mais est sont suis es êtes sommes était où que qu quoi qui comment quand pourquoi je j tu il elle on nous vous ils elles me m te t se s mon ma mes ton ta tes son sa ses à au aux en dans sur sous pour par avec sans ne n pas plus ce c cet cette ces y a ai as avez avons ont très oui non".split(' '),
  es: 'el la los las un una unos unas y o pero es son soy eres somos está están estoy dónde donde qué que quién quien cómo como cuándo cuando por porque yo tú tu él ella nosotros vosotros ellos ellas me te se nos os mi mis su sus de del al a en con sin para sobre no sí si muy más ya también hay ha he has han lo le les'.split(' '),
};

/** nlp.js normalises tokens (lower case, no diacritics): compare like with like. */
const FUNCTION_WORD_SETS: Record<string, Set<string>> = Object.fromEntries(
  Object.entries(FUNCTION_WORDS).map(([language, words]) => [
    language,
    new Set(words.map((w) => w.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase())),
  ]),
);

export interface Stemmer {
  tokenizeAndStem(text: string, keepStops?: boolean): string[];
  stemWords(tokens: string[]): string[];
  getTokenizer(): { tokenize(text: string, normalize?: boolean): string[] };
}

export interface Stopwords {
  isStopword(token: string): boolean;
}

export interface IntentVocabulary {
  /** Stems of each intent's examples. */
  words: Map<string, Set<string>>;
  /** Entities each intent's examples name as `{entity}` (lower case, as nlp.js stems them). */
  entities: Map<string, Set<string>>;
}

/** Read from the trained model: nlp.js keeps each example as its stems, `@entity` for placeholders. */
export function intentVocabulary(stemDict: Record<string, { intent: string }> | undefined): IntentVocabulary {
  const vocabulary: IntentVocabulary = { words: new Map(), entities: new Map() };
  const add = (map: Map<string, Set<string>>, intent: string, value: string) => {
    let values = map.get(intent);
    if (!values) map.set(intent, (values = new Set()));
    values.add(value);
  };
  for (const [key, value] of Object.entries(stemDict ?? {})) {
    for (const stem of key.split(',')) {
      if (stem.startsWith('@')) add(vocabulary.entities, value.intent, stem.slice(1));
      else if (stem) add(vocabulary.words, value.intent, stem);
    }
  }
  return vocabulary;
}

/** The stems of the message's content words (function words removed). */
export function contentStems(text: string, language: string, stemmer: Stemmer, stopwords: Stopwords | undefined): string[] {
  const own = FUNCTION_WORD_SETS[language];
  const isFunctionWord = (token: string) => (own ? own.has(token) : (stopwords?.isStopword(token) ?? false));
  const tokens = stemmer.getTokenizer().tokenize(text, true).filter((t) => !isFunctionWord(t));
  return stemmer.stemWords(tokens);
}

/** True when at least one content word of the message is known to the intent (or there are none). */
export function sharesVocabulary(content: string[], vocabulary: Set<string> | undefined): boolean {
  if (content.length === 0 || !vocabulary) return true;
  return content.some((stem) => vocabulary.has(stem));
}
