// The bot editor's intents files: the RFC 4180 reader (quotes, doubled quotes, line breaks in a
// field, CRLF/LF, BOM), problems with their lines, JSON, merge and replace, and a CSV round trip.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyImport, intentsCsv, intentsFromCsv, intentsFromJson, intentsJson, parseCsv } from '../../src/dashboard/pages/intents-file.js';

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF or LF, after a BOM', () => {
    const { records, problems } = parseCsv('\uFEFFa,"b, c","say ""hi"""\r\n"two\nlines",x,\n last ,y,z');
    assert.deepEqual(problems, []);
    assert.deepEqual(records, [
      { line: 1, cells: ['a', 'b, c', 'say "hi"'] },
      { line: 2, cells: ['two\nlines', 'x', ''] },
      { line: 4, cells: [' last ', 'y', 'z'] },
    ]);
  });

  it('reports an unclosed quote, text after a closing quote and a stray quote, with their lines', () => {
    assert.deepEqual(parseCsv('a,b\n"open,c').problems, [{ line: 2, message: 'A quoted field is never closed (a " is missing).' }]);
    assert.equal(parseCsv('a,b\n"x"y,c').problems[0]!.line, 2);
    assert.equal(parseCsv('a,b\nc,d\ne"f,g').problems[0]!.line, 3);
  });
});

describe('intents files', () => {
  const intents = [
    { name: 'hours', examples: ['when are you open, today?', '=1+1 is not a formula', 'say "hi"'], responses: ['9 to 5.\nMonday to Friday.'] },
    { name: 'refund', examples: ['money back'], responses: ['5 days.', '-or a voucher'] },
  ];

  it('round-trips through CSV (formula guard undone) and JSON', () => {
    assert.deepEqual(intentsFromCsv(intentsCsv(intents, 'x').text), { intents, problems: [] });
    assert.deepEqual(intentsFromJson(intentsJson(intents, 'x').text), { intents, problems: [] });
  });

  it('names the line of each bad CSV row and refuses unknown columns', () => {
    const { problems } = intentsFromCsv('intent,example,response\nhours,when,9\nBad Name,x,y\nhours,only two\nhours,,\n');
    assert.deepEqual(problems.map((p) => p.line), [3, 4, 5]);
    assert.match(problems[0]!.message, /Intent name “Bad Name”/);
    assert.match(intentsFromCsv('intent,question\nx,y').problems[0]!.message, /Unknown column “question”/);
  });

  it('names the line of a bad JSON intent, and of a syntax error', () => {
    const { problems } = intentsFromJson('[\n  {"name": "ok", "examples": ["a"], "responses": ["b"]},\n  {"name": "Bad!", "examples": [], "responses": []}\n]');
    assert.deepEqual(problems.map((p) => p.line), [3]);
    assert.equal(intentsFromJson('[\n{"name": }').problems[0]!.line, 2);
  });

  it('merges into intents of the same name or replaces them all, refusing an intent left without a response', () => {
    const current = [{ name: 'hours', examples: ['open?'], responses: ['9 to 5.'] }, { name: 'hi', examples: ['hello'], responses: ['Hi!'] }];
    const imported = [{ name: 'hours', examples: ['open?', 'closing time'], responses: [] }];
    const merged = applyImport(current, imported, 'merge');
    assert.deepEqual(merged.problems, []);
    assert.deepEqual(merged.intents, [{ name: 'hours', examples: ['open?', 'closing time'], responses: ['9 to 5.'] }, current[1]]);
    const replaced = applyImport(current, imported, 'replace');
    assert.match(replaced.problems[0]!.message, /“hours” would have no response/);
  });
});
