/** Arabic: the agents, webhooks and channels pages (en/admin.ts). */
import type { Translation } from '../catalog.js';
import type { admin as en } from '../en/admin.js';

export const admin: Translation<typeof en> = {
};
