/**
 * The one way an add-on (catalog.ts) is loaded: each module once per page, shared by every widget
 * on it. A load that failed is named in the console once and tried again at the next need; the
 * widget goes on without the add-on (a plain reply instead of a streamed one, English instead of
 * another language, no modal panel, no reason form).
 */
import { fetchAddon, type Addon, type AddonName } from './catalog.js';

export type { Addon, AddonName };

/** Each add-on's module; `null` once it failed (named in the console then: each missing one once). */
const loaded = new Map<AddonName, Promise<unknown> | null>();

/** The add-on's module; rejects (with what is missing) when it could not be loaded. */
export function loadAddon<N extends AddonName>(name: N): Promise<Addon<N>> {
  let module = loaded.get(name);
  if (!module) {
    const named = loaded.has(name);
    module = fetchAddon(name).catch((missing: string) => {
      loaded.set(name, null); // a later need tries again
      if (!named) console.warn(`ai-chat-widget: could not load ${missing}`);
      throw missing;
    });
    loaded.set(name, module);
  }
  return module as Promise<Addon<N>>;
}

/**
 * An add-on's part of one widget (the phone modal, human handoff, attachments): the add-on's
 * module loads at the first need and the part is built from it once. A load that failed leaves no
 * part, and the next need tries again.
 */
export class AddonPart<N extends AddonName, P> {
  /** The part, once loaded. */
  part?: P;
  private loading?: Promise<P | undefined>;

  constructor(
    private readonly name: N,
    private readonly build: (module: Addon<N>) => P,
  ) {}

  /** The part, loading the add-on first if need be; `undefined` when it could not be loaded. */
  load(): Promise<P | undefined> {
    return (this.loading ??= loadAddon(this.name).then(
      (module) => (this.part = this.build(module)),
      () => (this.loading = undefined),
    ));
  }
}
