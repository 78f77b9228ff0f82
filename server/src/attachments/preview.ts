/**
 * A message's preview in conversation lists (the conversations resource, the operator inbox): its
 * text, or for a message of files alone their names ("📎 photo.png, label.pdf"), so that such a
 * message does not read as an empty line.
 */
import { sql, type RawBuilder } from 'kysely';

/** The preview of the message row `alias` (`m`, `messages`), as SQL. */
export function messagePreview(alias: string): RawBuilder<string> {
  const content = sql.ref(`${alias}.content`);
  const files = sql.ref(`${alias}.attachments`);
  return sql<string>`case when ${content} = '' and ${files} is not null
    then '📎 ' || (select string_agg(f->>'filename', ', ') from jsonb_array_elements(${files}) f)
    else ${content} end`;
}
