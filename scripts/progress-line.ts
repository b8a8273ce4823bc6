/** A one-line progress counter ("Snapshot 120/3450 pages") that also works when output is not a terminal. */
export function progressLine(label: string) {
  const tty = process.stdout.isTTY;
  let last = 0;
  let pages = 0;
  return {
    update(done: number, total: number): void {
      pages = done;
      if (tty) process.stdout.write(`\r${label} ${done}/${total} pages`);
      else if (done === total || done - last >= Math.max(100, Math.ceil(total / 10))) {
        last = done;
        console.log(`${label} ${done}/${total} pages`);
      }
    },
    log(line: string): void {
      if (tty) process.stdout.write('\n');
      console.log(line);
    },
    done(seconds: number): void {
      console.log(
        `${tty ? '\n' : ''}Built ${pages} pages in ${seconds.toFixed(1)} s (${(pages / seconds).toFixed(0)} pages/s, whole build)`,
      );
    },
  };
}
