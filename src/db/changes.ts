// What changed since a moment, per account and table, so that a kept read (src/schema/read-cache.ts) is
// ended by writes to its own account only: one tenant's stream of edits leaves every other tenant's kept
// answers alone. Moments are a counter (a stamp) this process moves at each change it learns of, from
// the database itself (sqlite-changes.ts: this connection's triggers, and data_version for other
// processes; postgres-changes.ts: NOTIFY from the schema's triggers), and at once after a request's own
// write (context.ts `dataChanged`). A reader takes a stamp *before* it reads; what it keeps is valid while
// nothing it depends on changed after that stamp.
//
// An insert or update changes its own table of its account; a delete may cascade, so it changes every
// table of its account. A change whose account is not known (another SQLite process's commit, a lost
// PostgreSQL listener) changes everything. While the source of other processes' changes is not
// listening (`blind`), or has not been heard from lately (`heardUntil`), every stamp is a change of
// everything: nothing kept is served.

interface AccountChanges {
  /** Last change of any table of the account. */
  any: number;
  /** Last delete: every table of the account. */
  whole: number;
  /** Last insert or update, per table. */
  tables: Map<string, number>;
}

export class Changes {
  private now = 0;
  private everythingAt = 0;
  /** Last delete of any account: the schedule re-reads its next moment (schedule.ts). */
  private anyWholeAt = 0;
  /** Last insert or update per table, of any account. */
  private readonly tableAt = new Map<string, number>();
  private readonly accounts = new Map<string, AccountChanges>();
  /** Other processes' changes cannot be heard: every stamp changes everything. */
  blind = true;
  /**
   * Past this moment (performance.now()) this process may not yet have heard a change another process
   * was answered for: every stamp changes everything (the lease, postgres-changes.ts). SQLite: no limit.
   */
  heardUntil = Number.POSITIVE_INFINITY;
  /** This process's own writes are heard as they are made (SQLite's triggers), not only after commit. */
  hearsOwnWrites = false;
  /** Called before each stamp: a source that polls (SQLite's data_version) checks here. */
  beforeStamp: () => void = () => {};
  /**
   * Resolves once every other server process has heard this process's writes committed before the call:
   * a request that wrote waits for it before it answers (PostgreSQL with CROSS_PROCESS_READS=at-once:
   * postgres-changes.ts). Elsewhere nothing to wait for: SQLite's data_version is read at each stamp.
   */
  settle: () => Promise<void> = async () => {};

  /** The moment before a read. */
  stamp(): number {
    this.beforeStamp();
    return this.heardStamp();
  }

  /**
   * The moment before a read as far as this process knows, without asking the database (SQLite's
   * data_version): a request's stamp after its own write, which it has marked (context.ts).
   */
  heardStamp(): number {
    if (this.blind || performance.now() > this.heardUntil) this.everything();
    return this.now;
  }

  /** Rows of `table` of `account` were inserted or updated; with no table, deleted (which may cascade). */
  changed(account: string, table?: string): void {
    const at = ++this.now;
    let changes = this.accounts.get(account);
    if (!changes) {
      changes = { any: 0, whole: 0, tables: new Map() };
      this.accounts.set(account, changes);
    }
    changes.any = at;
    if (table) {
      changes.tables.set(table, at);
      this.tableAt.set(table, at);
    } else {
      changes.whole = at;
      this.anyWholeAt = at;
    }
  }

  everything(): void {
    this.everythingAt = ++this.now;
  }

  /**
   * Nothing `accounts` hold changed after `stamp` (in `tables` only, when given). No accounts: nothing
   * at all changed (a read that named no account may have read anything).
   */
  unchangedSince(stamp: number, accounts: readonly string[], tables?: readonly string[]): boolean {
    if (this.everythingAt > stamp) return false;
    if (accounts.length === 0) return this.now <= stamp;
    for (const account of accounts) {
      const changes = this.accounts.get(account);
      if (!changes) continue;
      if (!tables) {
        if (changes.any > stamp) return false;
        continue;
      }
      if (changes.whole > stamp) return false;
      for (const table of tables) if ((changes.tables.get(table) ?? 0) > stamp) return false;
    }
    return true;
  }

  /** A value that changes whenever rows of `table` of any account may have changed. */
  tableVersion(table: string): string {
    return `${this.everythingAt}.${this.anyWholeAt}.${this.tableAt.get(table) ?? 0}`;
  }
}
