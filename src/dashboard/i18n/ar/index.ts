/** The dashboard in Arabic: one chunk, imported when chosen (i18n.ts). */
import type { Catalog } from '../catalog.js';
import { admin } from './admin.js';
import { bots } from './bots.js';
import { pages } from './pages.js';
import { shell } from './shell.js';
import { support } from './support.js';

const catalog: Catalog = { ...shell, ...pages, ...bots, ...admin, ...support };
export default catalog;
