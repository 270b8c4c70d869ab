/**
 * Progress of a long job over a known number of items: on a terminal, a bar redrawn in place;
 * elsewhere (a log file, CI), a plain line every tenth of the way or every few seconds.
 */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Progress {
  update(done: number): void;
  finish(): void;
}

const number = (n: number) => Math.round(n).toLocaleString('en-US');

export const createProgress = (
  out: ProgressOutput,
  label: string,
  total: number,
  now: () => number = () => performance.now(),
): Progress => {
  const started = now();
  let lastDrawn = out.isTTY ? -Infinity : started;
  let lastTenth = 0;
  let done = 0;

  const rate = () => {
    const seconds = (now() - started) / 1000;
    return seconds > 0 ? done / seconds : 0;
  };
  const share = () => (total > 0 ? Math.min(1, done / total) : 1);

  // The bar's width is fixed once; the counts after it take about 50 columns at most.
  const width = Math.max(10, Math.min(30, (out.columns ?? 80) - label.length - 50));
  const drawBar = () => {
    const counts = `${number(done)}/${number(total)} events  ${number(rate())}/s`;
    const percent = `${Math.floor(share() * 100)}%`.padStart(4);
    const filled = Math.round(share() * width);
    out.write(
      `\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${percent}  ${counts}\u001b[K`,
    );
  };
  const writeLine = () =>
    out.write(`${label}: ${number(done)}/${number(total)} events (${Math.floor(share() * 100)}%)\n`);

  return {
    update(count) {
      done = count;
      const at = now();
      if (out.isTTY) {
        if (at - lastDrawn < 100) return;
        lastDrawn = at;
        drawBar();
        return;
      }
      const tenth = Math.floor(share() * 10);
      if (tenth > lastTenth || at - lastDrawn >= 5_000) {
        lastTenth = tenth;
        lastDrawn = at;
        if (done < total) writeLine();
      }
    },
    finish() {
      done = Math.max(done, total);
      const seconds = ((now() - started) / 1000).toFixed(1);
      if (out.isTTY) {
        drawBar();
        out.write(`  ${seconds} s\n`);
      } else out.write(`${label}: ${number(done)} events in ${seconds} s\n`);
    },
  };
};
