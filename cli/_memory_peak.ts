/**
 * The peak resident memory of a long run, sampled.
 *
 * @module
 */

/**
 * The peak of the process's resident memory, sampled every 100 ms while the
 * event loop is free and whenever `sample` is called (between phases).
 */
export class MemoryPeak {
  #peak = 0;
  readonly #timer = setInterval(() => this.sample(), 100);
  /** Takes a sample now. */
  sample(): void {
    this.#peak = Math.max(this.#peak, Deno.memoryUsage().rss);
  }
  /** The peak so far, in MiB. */
  peakMiB(): number {
    return this.#peak / (1024 * 1024);
  }
  /** Stops sampling; the peak in MiB. */
  stop(): number {
    clearInterval(this.#timer);
    this.sample();
    return this.#peak / 2 ** 20;
  }
}
