/**
 * The knowledge-quality question sets: a banking FAQ (bench/data/banking-faq.json, written for
 * this project) and questions from CLINC150 (bench/data/clinc150, CC BY 3.0). In-domain: the
 * questions of the CLINC intents an entry answers, labelled with that entry. Out-of-domain: CLINC's
 * out-of-scope rows and the questions of its intents no bank answers (travel, cooking, the car,
 * the home, small talk). Both are split in halves: `dev` (CLINC's `val`, `oos_val`) to tune and
 * calibrate on, `test` (CLINC's `test`, `oos_test`) to report. The picks are by stride, so the
 * sets are the same on every run.
 */
import { readFileSync } from 'node:fs';

export interface FaqEntry {
  key: string;
  title: string;
  answer: string;
  /** CLINC150 intents whose questions this entry answers. */
  clinc: string[];
}

export interface QuestionSet {
  /** [question, the key of the entry that answers it] */
  inDomain: [string, string][];
  outOfDomain: string[];
}

const data = (name: string) => new URL(`../data/${name}`, import.meta.url);

export const FAQ: FaqEntry[] = JSON.parse(readFileSync(data('banking-faq.json'), 'utf8')).entries;

/** An entry's knowledge content: the question, then its answer, as imported FAQ pages read. */
export function contentOf(entry: FaqEntry): string {
  return `${entry.title}\n\n${entry.answer}`;
}

/**
 * CLINC150 intents outside banking: a bank's FAQ has no answer to them. Left out as ambiguous for
 * a bank: the work domain (pay, taxes, insurance, 401k), `exchange_rate`, `travel_notification`,
 * `bill_balance`, `bill_due` and the meta intents (`cancel`, `yes`, `repeat`…).
 */
const OUT_OF_DOMAIN_INTENTS = (
  'book_flight book_hotel car_rental carry_on flight_status international_visa lost_luggage plug_type timezone travel_alert ' +
  'travel_suggestion vaccines calories cook_time food_last ingredient_substitution ingredients_list meal_suggestion ' +
  'nutrition_info recipe restaurant_reservation restaurant_reviews restaurant_suggestion accept_reservations ' +
  'cancel_reservation confirm_reservation how_busy alarm calculator date definition find_phone flip_coin make_call ' +
  'measurement_conversion roll_dice share_location spelling text time timer weather translate fun_fact goodbye greeting ' +
  'how_old_are_you meaning_of_life tell_joke thank_you what_are_your_hobbies where_are_you_from who_made_you ' +
  'do_you_have_pets are_you_a_bot what_is_your_name directions distance gas gas_type jump_start last_maintenance mpg ' +
  'oil_change_how oil_change_when schedule_maintenance tire_change tire_pressure traffic uber current_location calendar ' +
  'calendar_update play_music next_song reminder reminder_update shopping_list shopping_list_update smart_home todo_list ' +
  'todo_list_update update_playlist what_song order order_status'
).split(' ');

type Row = [string, string];

/** `count` rows spread evenly over `rows`. */
function spread<T>(rows: T[], count: number): T[] {
  if (rows.length <= count) return rows;
  return Array.from({ length: count }, (_, i) => rows[Math.floor((i * rows.length) / count)]!);
}

function setOf(rows: Row[], oos: Row[], perIntent: number, outOfDomain: number): QuestionSet {
  const byIntent = new Map<string, string[]>();
  for (const [text, intent] of rows) byIntent.set(intent, [...(byIntent.get(intent) ?? []), text]);
  const inDomain = FAQ.flatMap((entry) =>
    entry.clinc.flatMap((intent) => spread(byIntent.get(intent) ?? [], perIntent).map((q): [string, string] => [q, entry.key])),
  );
  const others = OUT_OF_DOMAIN_INTENTS.flatMap((intent) => spread(byIntent.get(intent) ?? [], 1));
  const half = Math.floor(outOfDomain / 2);
  return {
    inDomain,
    outOfDomain: [
      ...spread(
        oos.map(([text]) => text),
        half,
      ),
      ...spread(others, outOfDomain - half),
    ],
  };
}

/** The dev and test halves: ~150 in-domain and 150 out-of-domain questions each. */
export function questionSets(): { dev: QuestionSet; test: QuestionSet } {
  const clinc = JSON.parse(readFileSync(data('clinc150/data_full.json'), 'utf8')) as Record<string, Row[]>;
  return {
    dev: setOf(clinc.val!, clinc.oos_val!, 5, 150),
    test: setOf(clinc.test!, clinc.oos_test!, 5, 150),
  };
}
