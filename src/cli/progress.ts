// A one-line progress bar on stderr, drawn only when stderr is a terminal (a log file would fill with
// redraws); redrawn at most ten times a second.
const WIDTH = 30;
const REDRAW_MS = 100;

export interface Progress {
  update(done: number, detail: string): void;
  /** Clears the line. */
  finish(): void;
}

export function progressBar(stream: NodeJS.WriteStream, label: string, total: number): Progress {
  if (!stream.isTTY) return { update() {}, finish() {} };
  let drawn = 0;
  return {
    update(done, detail) {
      const now = Date.now();
      if (now - drawn < REDRAW_MS && done < total) return;
      drawn = now;
      const share = total > 0 ? Math.min(1, done / total) : 1;
      const filled = Math.round(share * WIDTH);
      const bar = `${"#".repeat(filled)}${".".repeat(WIDTH - filled)}`;
      stream.write(`\r\x1b[K${label} [${bar}] ${Math.floor(share * 100)}% ${detail}`);
    },
    finish() {
      stream.write("\r\x1b[K");
    },
  };
}
