// A one-line terminal progress bar (rewritten in place on a TTY, a line every 10% otherwise).
export interface Progress {
  tick(done: number): void;
  finish(): void;
}

export function progressBar(label: string, total: number, width = 30): Progress {
  const started = Date.now();
  const tty = process.stdout.isTTY;
  let lastDecile = -1;
  const line = (done: number) => {
    const share = total === 0 ? 1 : done / total;
    const filled = Math.round(share * width);
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? Math.round(done / seconds) : 0;
    return `${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} ${seconds.toFixed(1)} s ${rate}/s`;
  };
  return {
    tick(done) {
      if (tty) {
        process.stdout.write(`\r${line(done)}`);
        return;
      }
      const decile = Math.floor((done / Math.max(total, 1)) * 10);
      if (decile > lastDecile) {
        lastDecile = decile;
        console.log(line(done));
      }
    },
    finish() {
      if (tty) process.stdout.write(`\r${line(total)}\n`);
      else console.log(line(total));
    },
  };
}
