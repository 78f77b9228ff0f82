/**
 * Development loop for the intent classifier (server/src/nlu/classifier/): trains on CLINC150
 * `train` (or its first N examples per intent) as a bot would, then reports in-scope accuracy on
 * `val` and out-of-scope recall on `oos_val` at the bot's own calibrated threshold. Tune here, on
 * val/oos_val only; the bench rows (bench/nlu.ts) read the test split.
 *
 *   node --import tsx bench/nlu-dev.ts [--shots=10] [--data=path/to/data_full.json] [--language=en]
 */
import { readFileSync } from 'node:fs';
import { classifierBytes, classify } from '../server/src/nlu/classifier/model.ts';
import { trainClassifier } from '../server/src/nlu/classifier/train.ts';

const args = process.argv.slice(2);
const arg = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const shots = Number(arg('shots') ?? 0);
const path = arg('data') ?? new URL('./data/clinc150/data_full.json', import.meta.url).pathname;
const data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, [string, string][]>;

/** The first `shots` examples of each intent (all with 0). */
export function firstShots(rows: [string, string][], shots: number): [string, string][] {
  if (!shots) return rows;
  const seen = new Map<string, number>();
  return rows.filter(([, intent]) => {
    const n = seen.get(intent) ?? 0;
    seen.set(intent, n + 1);
    return n < shots;
  });
}

const train = firstShots(data.train!, shots);
const intents = [...new Set(train.map(([, intent]) => intent))];
const indexOf = new Map(intents.map((n, i) => [n, i]));
const cpu = process.cpuUsage();
const started = performance.now();
const { classifier, quality } = trainClassifier(intents, train.map(([text, intent]) => ({ text, intent: indexOf.get(intent)! })), arg('language') ?? 'en');
const wall = performance.now() - started;
console.log(
  `examples ${train.length}: training ${wall.toFixed(0)} ms (cpu ${(process.cpuUsage(cpu).user / 1000).toFixed(0)} ms), ` +
    `${(classifierBytes(classifier) / 1e6).toFixed(2)} MB, temperature ${classifier.temperature.toFixed(3)}, threshold ${classifier.threshold}, cv accuracy ${quality.accuracy}`,
);
const scratch = new Float64Array(intents.length);
const judge = (text: string) => {
  const c = classify(classifier, text, scratch);
  return { intent: intents[c.best], p: c.probability };
};
const val = data.val!.map(([text, intent]) => ({ ...judge(text), gold: intent }));
const oos = data.oos_val!.map(([text]) => judge(text));
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const accuracy = val.filter((v) => v.intent === v.gold).length / val.length;
const at = (t: number) => [val.filter((v) => v.intent === v.gold && v.p >= t).length / val.length, oos.filter((v) => v.p < t).length / oos.length] as const;
const [kept, recall] = at(classifier.threshold);
console.log(`val accuracy ${pct(accuracy)}; at the calibrated threshold: in-scope ${pct(kept)}, oos_val recall ${pct(recall)}`);
for (const t of [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]) console.log(`  p >= ${t}: in-scope ${pct(at(t)[0])}, oos recall ${pct(at(t)[1])}`);
