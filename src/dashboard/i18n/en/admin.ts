/** English: the agents, webhooks and channels pages. */
import type { Message } from '../catalog.js';

export const admin = {
} as const satisfies Record<string, Message>;
