/**
 * A trained model as stored (jsonb in `bots.nlu_model` / `agents.nlu_model`) and as loaded for
 * parsing, and the cache of loaded models, bounded by their bytes: a process serving thousands of
 * bots keeps only the recently used ones in memory.
 */
import type { IntentQuality, TrainingData } from '../../../src/client/types.ts';
import { answerDataBytes, type AnswerData } from './answer-data.ts';
import { classifierBytes, loadClassifier, type Classifier, type StoredClassifier } from './classifier/model.ts';
import { listMatcher, type ListEntity } from './list-entities.ts';
import type { NerEdge, RegexEntity } from './regex-entities.ts';

/**
 * Models of any other format are retrained (see `NluEngine.isCurrent`): nlp.js's `nlpjs-4`, and
 * `ngram-lr-1`, whose features had character bigrams in every script and no word clusters.
 */
export const MODEL_FORMAT = 'ngram-lr-2';

export interface StoredModel {
  format: typeof MODEL_FORMAT;
  language: string;
  classifier: StoredClassifier;
  lists: ListEntity[];
  regexes: RegexEntity[];
  /** Entities each intent's examples name as `{entity}`: their mention is evidence for the intent. */
  named: Record<string, string[]>;
  quality: IntentQuality;
}

export function isStoredModel(model: unknown): model is StoredModel {
  const m = model as StoredModel | null;
  return !!m && typeof m === 'object' && m.format === MODEL_FORMAT && typeof m.classifier === 'object' && Array.isArray(m.lists);
}

/** The token an `{entity}` placeholder, or a found entity, stands as for the classifier. */
export function placeholder(entity: string): string {
  return ` xentity${entity.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase()}x `;
}

/** `{entity}` in an example → its placeholder. */
export function withPlaceholders(example: string): string {
  return example.replace(/\{([A-Za-z0-9_.-]+)\}/g, (_, name: string) => placeholder(name));
}

/** The message with each found entity's text replaced by its placeholder, as in the examples. */
export function substituteEdges(text: string, edges: readonly NerEdge[]): string {
  let out = '';
  let at = 0;
  for (const edge of edges) {
    out += text.slice(at, edge.start) + placeholder(edge.entity);
    at = edge.end + 1;
  }
  return out + text.slice(at);
}

export function listEntities(training: TrainingData): ListEntity[] {
  return (training.entities ?? []).flatMap((e) =>
    e.type === 'list' ? [{ name: e.name, values: e.values.map((v) => ({ option: v.value, texts: [v.value, ...(v.synonyms ?? [])] })) }] : [],
  );
}

export interface LoadedModel {
  language: string;
  classifier: Classifier;
  findLists: (text: string) => NerEdge[];
  regexes: RegexEntity[];
  named: Map<string, Set<string>>;
  /** What answering needs of the training this model was trained on, once an owner's turn read it. */
  answers?: AnswerData;
  bytes: number;
}

export function loadModel(model: StoredModel): LoadedModel {
  const classifier = loadClassifier(model.classifier);
  const listText = model.lists.reduce((sum, l) => sum + l.values.reduce((s, v) => s + v.texts.reduce((t, x) => t + x.length + 64, 0), 0), 0);
  return {
    language: model.language,
    classifier,
    findLists: listMatcher(model.lists),
    regexes: model.regexes,
    named: new Map(Object.entries(model.named).map(([intent, names]) => [intent, new Set(names)])),
    // The list trie costs about a node per word of each text: counted by its characters, generously.
    bytes: classifierBytes(classifier) + 4 * listText + 1024,
  };
}

/** The loaded model with its answer data, their bytes counted together. */
export function withAnswers(loaded: LoadedModel, answers: AnswerData): LoadedModel {
  return { ...loaded, answers, bytes: loaded.bytes - (loaded.answers ? answerDataBytes(loaded.answers) : 0) + answerDataBytes(answers) };
}

/** An LRU bounded by bytes: Map keeps insertion order, so re-inserting on hit makes the first key the oldest. */
export class ModelCache {
  private readonly entries = new Map<string, LoadedModel>();
  private total = 0;
  constructor(private readonly maxBytes: number) {}

  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): LoadedModel | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  /** A model bigger than the whole bound is not kept (it is used for the message at hand only). */
  set(key: string, value: LoadedModel): void {
    this.delete(key);
    if (value.bytes > this.maxBytes) return;
    this.entries.set(key, value);
    this.total += value.bytes;
    for (const [oldest, model] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.total -= model.bytes;
    }
  }

  deleteOwner(ownerId: string): number {
    let dropped = 0;
    for (const key of [...this.entries.keys()]) if (key.startsWith(`${ownerId}:`)) dropped += Number(this.delete(key));
    return dropped;
  }

  private delete(key: string): boolean {
    const model = this.entries.get(key);
    if (!model) return false;
    this.entries.delete(key);
    this.total -= model.bytes;
    return true;
  }
}
