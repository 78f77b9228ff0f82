// Parsing thread: imported documents are read here, never on the service's event loop, under a heap
// limit and a deadline (parser.ts, job-worker.ts): a document that needs more ends with its thread.
// Plain JavaScript that loads the TypeScript parsers through tsx, so it starts the same under tsx,
// node and any test runner.
// Protocol (job-worker.ts): in {id, input: {bytes, format, fallbackTitle, limits, charset}};
// out {id, ok: true, output: {document} | {issue: {code, message}}} | {id, ok: false, message}.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { parseDocument } = await tsImport('./documents.ts', import.meta.url);

parentPort.on('message', async ({ id, input }) => {
  try {
    const document = await parseDocument(input.bytes, input.format, input.fallbackTitle, input.limits, input.charset);
    parentPort.postMessage({ id, ok: true, output: { document } });
  } catch (error) {
    // An ImportIssueError (by name: this thread's class is not the service's) is the document's issue.
    if (error?.name === 'ImportIssueError') parentPort.postMessage({ id, ok: true, output: { issue: { code: error.code, message: error.message } } });
    else parentPort.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});

// Imports are loaded: job deadlines start from here (see job-worker.ts).
parentPort.postMessage({ ready: true });
