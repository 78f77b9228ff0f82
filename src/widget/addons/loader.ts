/**
 * An add-on's part of one widget (human handoff, attachments): the add-on's module loads at the
 * first need and the part is built from it once. A load that failed leaves no part, and the next
 * need tries again.
 */
import { loadAddon, type Addon, type AddonName } from './addons.js';

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
