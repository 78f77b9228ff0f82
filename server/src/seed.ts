import type { Deps } from './services.ts';

/** TODO(server helper): the demo bot and knowledge entries created on first start. */
export async function seedDemoContent(_deps: Deps, _accountId: string): Promise<void> {}
