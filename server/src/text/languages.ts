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
 * Words that say how something is asked, not what about (pronouns, articles, auxiliaries,
 * "should", "much", "please", contractions' "don" and "t"), folded (lower case, no accents). They
 * are no evidence that a passage answers a question (knowledge relevance), that a message is about
 * an intent (the intent guard), or that a sentence answers (extractive answers).
 */
export const FUNCTION_WORDS: Record<Language, ReadonlySet<string>> = {
  en: new Set([
    ...SEARCH_STOPWORDS.en,
    ...list(
      'about above after again all also am another any anyone anything anyway around been before being below best better ' +
        'bit both but could d did didn doesn doing don done down each either else enough even ever every everything few find ' +
        'get gets getting give go goes going good got had has have having he her here hers hey hi him his hello help however ' +
        'if into isn its just keep kind know let like ll look lot lots m make many may maybe might mine more most much must need needs ' +
        'no none not nothing now off ok okay once one only other others out over own please possible pretty quite rather re ' +
        'really right s said same say see shall she should show since some someone something soon still such sure t take tell than ' +
        'thank thanks their them then there these they thing things think those though through too try under until up ' +
        'us use using ve very want wants way well were whatever whether while whom whose would yeah yes yet yours aren wasn',
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

/** Function words of every language: for text whose language is not known. */
export const ANY_FUNCTION_WORDS: ReadonlySet<string> = new Set(LANGUAGES.flatMap((language) => [...FUNCTION_WORDS[language]]));
