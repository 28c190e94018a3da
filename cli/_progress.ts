/**
 * A progress bar on stderr: redrawn in place on a terminal; otherwise one
 * line at the end (and per tenth of the work for 100 episodes or more), so
 * logs stay short. Lines go through `console.error`, in-place redraws
 * straight to the terminal.
 *
 * @module
 */

/** Shows the progress of `total` episodes. */
export class ProgressBar {
  readonly #label: string;
  readonly #total: number;
  readonly #tty: boolean;
  readonly #enabled: boolean;
  #lastTenth = -1;
  readonly #encoder = new TextEncoder();

  /**
   * Creates the bar.
   *
   * @param label What is running, e.g. `textcraft full`.
   * @param total Episodes to run.
   * @param enabled Draw anything at all. @default true
   */
  constructor(label: string, total: number, enabled = true) {
    this.#label = label;
    this.#total = total;
    this.#enabled = enabled;
    this.#tty = enabled && Deno.stderr.isTerminal();
  }

  /** Reports `done` episodes, `successes` of them successful. */
  update(done: number, successes: number): void {
    if (!this.#enabled) return;
    const width = 24;
    const filled = this.#total > 0 ? Math.round((done / this.#total) * width) : width;
    const rate = done > 0 ? ` ${((100 * successes) / done).toFixed(1)}% success` : "";
    const line = `${this.#label} [${"#".repeat(filled)}${
      "-".repeat(width - filled)
    }] ${done}/${this.#total}${rate}`;
    if (this.#tty) {
      this.#write(`\r${line}\x1b[K${done === this.#total ? "\n" : ""}`);
      return;
    }
    // Short runs log only their end; long ones every tenth.
    const tenth = this.#total > 0 ? Math.floor((done * 10) / this.#total) : 10;
    const due = done === this.#total || (this.#total >= 100 && done > 0);
    if (due && tenth !== this.#lastTenth) {
      this.#lastTenth = tenth;
      console.error(line);
    }
  }

  #write(text: string): void {
    Deno.stderr.writeSync(this.#encoder.encode(text));
  }
}
