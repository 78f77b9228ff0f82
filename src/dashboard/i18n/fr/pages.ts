/** French: the pages (en/pages.ts). */
import type { Translation } from '../catalog.js';
import type { pages as en } from '../en/pages.js';

export const pages: Translation<typeof en> = {
};
