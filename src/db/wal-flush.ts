// Commits on the embedded database reach the disk without stopping the event loop. With `synchronous =
// FULL`, SQLite flushes the WAL inside COMMIT, on the one thread that answers every request: 0.6-1 ms a
// commit on these disks, a fifth of a create's time, during which nothing else is answered. Instead the
// connection commits with NORMAL (the WAL frames are written, not flushed) and the request that wrote
// waits for an fdatasync of the WAL file, run on libuv's thread pool, before it is answered: what a writer
// is told is written is on disk, as with FULL. Commits that end while a flush runs share the next one.
//
// What differs from FULL: a commit is readable in the moment before its flush ends, by other requests and
// by background work (a webhook or mail sent from the outbox). A power cut in that moment loses a write
// that was seen, never one its writer was told of; SQLite's NORMAL keeps the file consistent through it.
// And when a flush fails, the write it was for is committed but answered with an error, and the connection
// answers nothing more (docs/api-notes.md, "Durability on SQLite").
import { type FileHandle, open } from "node:fs/promises";

export class WalFlush {
  private file: Promise<FileHandle> | undefined;
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  /**
   * A flush that failed fails every later one. Its commit is already readable, and Linux reports a
   * failed write-back once: a later flush could succeed over frames the disk never got. So from then on
   * the connection answers nothing and commits nothing (sqlite-adapter.ts), and /healthz fails so that the
   * process is restarted; SQLite then recovers the WAL as far as it is whole. PostgreSQL stops on a failed
   * flush for the same reason.
   */
  private failure: Error | undefined;
  /** Read by the connection (sqlite-adapter.ts); set here only, by the first flush that fails. */
  get failed(): Error | undefined {
    return this.failure;
  }

  constructor(private readonly walPath: string) {}

  /** Resolves once everything written to the WAL before the call is on disk. */
  flush(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (!this.running) return this.start();
    // The running flush may have begun before this caller's frames were written: wait for the next one,
    // which every caller until it begins shares.
    this.next ??= this.running
      .catch(() => {})
      .then(() => {
        this.next = undefined;
        return this.failed ? Promise.reject(this.failed) : this.start();
      });
    return this.next;
  }

  async close(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await (await file?.catch(() => undefined))?.close();
  }

  private start(): Promise<void> {
    // Kept open: SQLite keeps the WAL file (its inode) for as long as the connection is open.
    this.file ??= open(this.walPath, "r");
    const opened = this.file;
    const running = opened
      .catch((error) => {
        if (this.file === opened) this.file = undefined;
        throw error;
      })
      .then((file) =>
        file.datasync().catch((error: Error) => {
          this.failure ??= new Error(`the SQLite WAL could not be flushed to disk: ${error.message}`, {
            cause: error,
          });
          throw this.failure;
        }),
      )
      .finally(() => {
        if (this.running === running) this.running = undefined;
      });
    this.running = running;
    return running;
  }
}
