import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Page } from '../../client/index.js';
import { errorMessage } from './errors.js';

/** Fetches one page of a cursor-paginated list; `cursor` is undefined for the first page. */
export type PageLoader<T> = (cursor: string | undefined) => Promise<Page<T>>;

/**
 * The state of a cursor-paginated list (items so far, the next cursor, loading and error) shared
 * by every list page. A newer `reload()` wins over an older one still in flight, so a filter typed
 * quickly never shows the answer to the previous filter.
 */
export class PagedList<T> implements ReactiveController {
  items: T[] = [];
  nextCursor: string | null = null;
  loading = false;
  error = '';
  /** True once the first page has been answered (so "no items" can be told from "not loaded yet"). */
  loaded = false;
  private generation = 0;

  constructor(
    private readonly host: ReactiveControllerHost,
    private loader: PageLoader<T>,
  ) {
    host.addController(this);
  }

  hostConnected(): void {}

  /** Starts over from the first page, optionally with a new loader (new filters). */
  reload(loader: PageLoader<T> = this.loader): Promise<void> {
    this.loader = loader;
    this.items = [];
    this.nextCursor = null;
    this.loaded = false;
    return this.fetch(undefined);
  }

  /** Appends the next page, if there is one. */
  more(): Promise<void> {
    return this.nextCursor ? this.fetch(this.nextCursor) : Promise.resolve();
  }

  /** Drops one item locally (after its DELETE succeeded) without refetching. */
  remove(predicate: (item: T) => boolean): void {
    this.items = this.items.filter((item) => !predicate(item));
    this.host.requestUpdate();
  }

  /** Replaces an item in place (after an update) or puts a new one first. */
  upsert(item: T, same: (a: T, b: T) => boolean): void {
    const index = this.items.findIndex((existing) => same(existing, item));
    this.items = index < 0 ? [item, ...this.items] : this.items.map((existing, i) => (i === index ? item : existing));
    this.host.requestUpdate();
  }

  private async fetch(cursor: string | undefined): Promise<void> {
    const generation = ++this.generation;
    this.loading = true;
    this.error = '';
    this.host.requestUpdate();
    try {
      const page = await this.loader(cursor);
      if (generation !== this.generation) return;
      this.items = cursor ? [...this.items, ...page.items] : page.items;
      this.nextCursor = page.has_more ? page.next_cursor : null;
      this.loaded = true;
    } catch (error) {
      if (generation !== this.generation) return;
      this.error = errorMessage(error);
    } finally {
      if (generation === this.generation) {
        this.loading = false;
        this.host.requestUpdate();
      }
    }
  }
}
