/** English: the bots. */
import type { Message } from '../catalog.js';

export const bots = {
} as const satisfies Record<string, Message>;
