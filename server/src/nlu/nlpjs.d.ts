/**
 * Minimal ambient types for the parts of nlp.js we call (it ships none; axa-group/nlp.js #743).
 * Only what `nlu/` uses is declared, so a use outside this surface fails the typecheck on purpose.
 */
declare module '@nlpjs/core' {
  export interface Container {
    use(plugin: unknown): unknown;
  }
  export function containerBootstrap(): Container;
}

declare module '@nlpjs/nlp' {
  import type { Container } from '@nlpjs/core';

  export interface NlpSettings {
    languages?: string[];
    autoSave?: boolean;
    autoLoad?: boolean;
    /** Below this score nlp.js itself answers `None`; we pass 0 and apply our own threshold. */
    threshold?: number;
    calculateSentiment?: boolean;
    /** Run entity extraction on every message (by default only when some example names an entity). */
    forceNER?: boolean;
    nlu?: { log?: boolean };
  }

  export interface NlpEntity {
    entity: string;
    type: string;
    /** The list option (its normalised value) for enum entities. */
    option?: string;
    sourceText: string;
    utteranceText: string;
    start: number;
    end: number;
  }

  export interface NlpResult {
    intent: string;
    score: number;
    classifications?: { intent: string; score: number }[];
    entities: NlpEntity[];
  }

  export class Nlp {
    constructor(settings: NlpSettings, container?: Container);
    addDocument(locale: string, utterance: string, intent: string): unknown;
    addNerRuleOptionTexts(locale: string, name: string, option: string, texts: string[]): unknown;
    addNerRegexRule(locale: string, name: string, regex: RegExp): unknown;
    train(): Promise<unknown>;
    export(minified?: boolean): string;
    import(data: string | object): void;
    process(locale: string, utterance: string): Promise<NlpResult>;
  }
}

declare module '@nlpjs/lang-en' {
  export const LangEn: unknown;
}
declare module '@nlpjs/lang-de' {
  export const LangDe: unknown;
}
declare module '@nlpjs/lang-fr' {
  export const LangFr: unknown;
}
declare module '@nlpjs/lang-es' {
  export const LangEs: unknown;
}
