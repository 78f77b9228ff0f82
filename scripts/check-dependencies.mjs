// `npm run check:deps`: the import rules of .dependency-cruiser.cjs over server/src and src/.
// dependency-cruiser reads TypeScript through the compiler's JS API, which TypeScript 7 no longer
// has: the files are named here (its loose parser reads each named file), and `./x.js` imports
// resolve to `./x.ts` as tsc and Vite resolve them. Prints the violations; exits 1 on any.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cruise, format } from 'dependency-cruiser';

const root = join(import.meta.dirname, '..');
const ruleSet = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs'));

const sources = (dir) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|mjs)$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => join(dir, file).replaceAll('\\', '/'));

process.chdir(root);
const files = [...sources('server/src'), ...sources('src')].sort();
const result = await cruise(
  files,
  { ruleSet, validate: true, ...ruleSet.options },
  { extensions: ['.ts', '.mjs', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } },
);
const report = await format(result.output, { outputType: 'err' });
process.stdout.write(report.output);
process.exitCode = report.exitCode > 0 ? 1 : 0;
