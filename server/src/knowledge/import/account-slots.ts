/**
 * How many import jobs of one account run at once in this process: at most `limit`; the others
 * wait their turn in order, their rows still `queued`. So 60 imports of one account are 2 crawls
 * at a time, not 60. Closing lets every waiter go, to find the service shutting down.
 */
interface Account {
  running: number;
  waiting: (() => void)[];
}

export class AccountSlots {
  private readonly accounts = new Map<string, Account>();
  private closed = false;

  constructor(private readonly limit: number) {}

  /** Resolves when the caller holds one of the account's slots; `release` must follow. */
  acquire(accountId: string): Promise<void> {
    let account = this.accounts.get(accountId);
    if (!account) this.accounts.set(accountId, (account = { running: 0, waiting: [] }));
    if (account.running < this.limit || this.closed) {
      account.running++;
      return Promise.resolve();
    }
    // `release` hands its slot straight to the first waiter: `running` stays as it is.
    return new Promise((resolve) => account.waiting.push(resolve));
  }

  release(accountId: string): void {
    const account = this.accounts.get(accountId);
    if (!account) return;
    const next = account.waiting.shift();
    if (next) return next();
    if (--account.running === 0) this.accounts.delete(accountId);
  }

  /** Every waiter goes on at once (and releases its slot as usual). */
  close(): void {
    this.closed = true;
    for (const account of this.accounts.values()) {
      for (const resolve of account.waiting.splice(0)) {
        account.running++;
        resolve();
      }
    }
  }
}
