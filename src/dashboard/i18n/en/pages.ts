/** English: the pages. */
import type { Message } from '../catalog.js';

export const pages = {
} as const satisfies Record<string, Message>;
