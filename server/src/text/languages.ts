/**
 * The languages the service analyses text in (bots, agents and knowledge entries take one), their
 * Snowball stemmers, and their function words.
 */
import { stemmer as stemDe } from '@orama/stemmers/german';
import { stemmer as stemEn } from '@orama/stemmers/english';
import { stemmer as stemEs } from '@orama/stemmers/spanish';
import { stemmer as stemFr } from '@orama/stemmers/french';
import { folded } from './words.ts';

export const LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

const STEMMERS: Record<Language, (word: string) => string> = { en: stemEn, de: stemDe, fr: stemFr, es: stemEs };

/** The Snowball stem of a lower-case word (before accents are stripped: the Spanish and German stemmers need them). */
export const stem = (word: string, language: Language): string => STEMMERS[language](word);

const list = (text: string) => new Set(text.split(' ').map(folded));

/**
 * The most frequent function words: they match nearly every passage, so search leaves them out
 * of its index (they would only add noise to BM25, and fuzzy matching turns "the" into "then").
 * A subset of `FUNCTION_WORDS`: "help", "need" or "please" are kept by search, where a passage
 * that says them may still be the one asked for.
 */
export const SEARCH_STOPWORDS: Record<Language, ReadonlySet<string>> = {
  en: list('a an and are as at be by can do does for from how i in is it me my of on or our so that the this to was we what when where which who why will with you your'),
  de: list('aber als am an auch auf aus bei bin bis das dass dem den der des die du ein eine einem einen einer es für hat ich ihr im in ist ja mit nicht noch oder sie sind und von was wie wir zu zum zur'),
  fr: list('au aux avec ce ces comment dans de des du elle en est et il je la le les leur mais me mon ne nous on ou par pas pour que qui sa se ses son sur ta te un une vos votre vous'),
  es: list('a al como con de del el en es esta este la las lo los me mi mis no o para pero por que se su sus te tu un una y yo'),
};

/**
 * Function words: pronouns, articles, auxiliaries, prepositions, conjunctions, contractions' "don"
 * and "t" — grammar, no topic — folded (lower case, no accents). No evidence that a message is
 * about an intent (the intent guard), that a passage answers (knowledge relevance) or that a
 * sentence answers (extractive answers).
 */
export const FUNCTION_WORDS: Record<Language, ReadonlySet<string>> = {
  en: new Set([
    ...SEARCH_STOPWORDS.en,
    ...list(
      'a am been but could d did didn doesn don done down had has have he her him his if into isn its just ll m may might mine must no ' +
        'not off out over please re s shall she should so some t than then there these they them their those too under up us ' +
        've very were whom whose would yes yours aren wasn also any all about here',
    ),
  ]),
  de: new Set([
    ...SEARCH_STOPWORDS.de,
    ...list('er eines war bist seid wo wer wann warum mich mir dich dir uns euch mein dein sein vom nach über unter um kein keine nein schon nur sehr so dann doch mal bitte denn habe haben wird werden kann können'),
  ]),
  fr: new Set([
    ...SEARCH_STOPWORDS.fr,
    ...list("l d ou mais sont suis es êtes sommes était où qu quoi quand pourquoi j tu ils elles m t s ma mes ton tes à en sous sans n plus c cet cette y a ai as avez avons ont très oui non"),
  ]),
  es: new Set([
    ...SEARCH_STOPWORDS.es,
    ...list('unos unas son soy eres somos está están estoy dónde donde qué quién quien cómo cuándo cuando porque tú él ella nosotros vosotros ellos ellas nos os a sin sobre sí si muy más ya también hay ha he has han le les'),
  ]),
};

/**
 * Words that say how a question is asked, not what about ("help", "need", "should", "much",
 * "tell"): with the function words, no evidence that a passage answers (knowledge relevance) or a
 * sentence does (extractive answers). In a small knowledge base such a word is rare, so its IDF
 * would make "what should I do if it hurts" look answered by "What should I do if my card is lost?".
 * The intent guard keeps them: "find", "show", "change" may be what an intent is about.
 */
const ASKING_WORDS: Partial<Record<Language, ReadonlySet<string>>> = {
  en: list(
    'about above after again all also another any anyone anything anyway around before being below best better ' +
      'bit both doing each either else enough even ever every everything few find ' +
      'get gets getting give go goes going good got having hers hey hi hello help however ' +
      'keep kind know let like look lot lots make many may maybe more most much need needs ' +
      'none nothing now ok okay once one only other others own possible pretty quite rather ' +
      'really right said same say see show since someone something soon still such sure take tell ' +
      'thank thanks thing things think though through try until ' +
      'use using want wants way well whatever whether while yeah yet',
  ),
};

/** Words that are no evidence of an answer in `language`: its function words and its asking words. */
const notEvidence = (language: Language): ReadonlySet<string> => new Set([...FUNCTION_WORDS[language], ...(ASKING_WORDS[language] ?? [])]);
export const NOT_EVIDENCE: Record<Language, ReadonlySet<string>> = { en: notEvidence('en'), de: notEvidence('de'), fr: notEvidence('fr'), es: notEvidence('es') };

/** `NOT_EVIDENCE` of every language: for text whose language is not known. */
export const NOT_EVIDENCE_ANY: ReadonlySet<string> = new Set(LANGUAGES.flatMap((language) => [...NOT_EVIDENCE[language]]));
