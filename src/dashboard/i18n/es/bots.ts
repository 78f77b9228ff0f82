/** Spanish: the bots (en/bots.ts). */
import type { Translation } from '../catalog.js';
import type { bots as en } from '../en/bots.js';

export const bots: Translation<typeof en> = {
};
