/**
 * WebShop's product search: BM25 over one text field per product, as the
 * reference's Pyserini index scores it (`search_engine/`: Anserini's
 * `SimpleSearcher` over a Lucene 8 index built by
 * `convert_product_file_format.py` and `run_indexing.sh`).
 *
 * What is reproduced:
 * - The document: title, full description, first bullet and the option
 *   text (`size: s, m, and color: red, blue`) joined by spaces and
 *   lower-cased ({@linkcode documentText}).
 * - Anserini's default analyzer for indexing and queries: Lucene's
 *   `StandardTokenizer` (Unicode word boundaries: `men's`, `14.125`,
 *   `4k` and even `material:solid` stay one token, `x-large` is two), the
 *   English possessive filter (`'s` dropped), lower-casing, Lucene's 33
 *   English stop words and the Porter stemmer (Lucene's `PorterStemmer`,
 *   the reference implementation with its `bli`/`logi` rules).
 * - Anserini's bag-of-words query (a term repeated in the query counts
 *   that many times) and its BM25 defaults, k1 = 0.9 and b = 0.4 (not
 *   Lucene's own 1.2 / 0.75); Lucene's idf `log(1 + (N - n + 0.5) / (n +
 *   0.5))`, its one-byte document lengths (exact below 24 tokens, then 4
 *   significant bits), its score `w - w / (1 + f / norm)` in 32-bit floats
 *   and the sum of term scores in doubles, rounded to a float.
 * - The order: score descending, ties by ASIN ascending (Anserini sorts
 *   by score, then by the document id).
 *
 * Where ranking can still differ from the reference:
 * - The tokenizer implements the word-boundary rules that matter for
 *   this catalog (letters, digits, the mid-word and mid-number
 *   punctuation, connectors, combining marks); Hebrew-letter rules are
 *   left out, every Han or Hiragana character is one token, and an emoji
 *   (any `Emoji` code point but `0-9#*`, with what joins it) is one token,
 *   which only approximates Lucene's emoji grammar. Tokens over 255
 *   characters are not split. These change document lengths by a token
 *   here and there, which the one-byte lengths mostly absorb.
 * - Lowercasing is Java's per code point (`İ` becomes `i`).
 * - Floating point follows Lucene's operation order; a near tie can still
 *   fall differently if the JVM rounds an intermediate differently.
 *
 * @module
 */
import { analyze } from "./analyzer.ts";
import type { Product } from "./catalog.ts";

/** What the index reads of a product. */
export type IndexedProduct = Pick<Product, "asin" | "name" | "description" | "bullets" | "options">;

/** Options of a {@linkcode SearchIndex}. */
export interface SearchIndexOptions {
  /** BM25 term-frequency saturation. @default 0.9 */
  k1?: number;
  /** BM25 length normalisation. @default 0.4 */
  b?: number;
}

/** One search result. */
export interface SearchHit {
  /** The product's ASIN. */
  asin: string;
  /** Its BM25 score (a 32-bit float's value). */
  score: number;
}

/**
 * The text the reference indexes for a product: title, description, first
 * bullet and option text, joined by spaces, lower-cased.
 *
 * @param product The product.
 * @returns The document text.
 *
 * @example Usage
 * ```ts
 * import { documentText } from "./search.ts";
 * const p = { asin: "A1", name: "Tee", description: "Soft", bullets: ["Cotton"], options: { size: ["s", "m"] } };
 * console.log(documentText(p)); // tee soft cotton size: s, m
 * ```
 */
export function documentText(product: IndexedProduct): string {
  const optionText = Object.entries(product.options)
    .map(([name, values]) => `${name}: ${values.join(", ")}`)
    .join(", and ");
  return [product.name, product.description, product.bullets[0] ?? "", optionText]
    .join(" ")
    .toLowerCase();
}

/**
 * A BM25 index over products, searched as the reference's Lucene index is.
 *
 * @example Usage
 * ```ts
 * import { SearchIndex } from "./search.ts";
 * const index = new SearchIndex([
 *   { asin: "A1", name: "Red running shoes", description: "", bullets: [], options: {} },
 *   { asin: "A2", name: "Blue tea kettle", description: "", bullets: [], options: {} },
 * ]);
 * console.log(index.search("running shoe")); // [ "A1" ]
 * ```
 */
export class SearchIndex {
  /** The number of products indexed. */
  readonly size: number;
  readonly #asins: string[];
  readonly #postings = new Map<string, { docs: Int32Array; freqs: Float32Array }>();
  readonly #norms: Uint8Array;
  readonly #normInverse = new Float32Array(256);
  readonly #docCount: number;

  /**
   * Indexes `products`, numbering them in the given order.
   *
   * @param products The products.
   * @param options BM25 parameters.
   * @throws {RangeError} When k1 or b is negative, or b exceeds 1.
   */
  constructor(products: readonly IndexedProduct[], options: SearchIndexOptions = {}) {
    const k1 = Math.fround(options.k1 ?? 0.9);
    const b = Math.fround(options.b ?? 0.4);
    if (!(k1 >= 0) || !(b >= 0 && b <= 1)) {
      throw new RangeError(`Expected k1 >= 0 and 0 <= b <= 1, got k1=${k1}, b=${b}`);
    }
    this.size = products.length;
    this.#asins = products.map((p) => p.asin);
    this.#norms = new Uint8Array(products.length);
    const lists = new Map<string, { docs: number[]; freqs: number[] }>();
    let totalTokens = 0;
    let docCount = 0;
    products.forEach((product, doc) => {
      const terms = analyze(documentText(product));
      totalTokens += terms.length;
      if (terms.length > 0) docCount++;
      this.#norms[doc] = intToByte4(terms.length);
      const counts = new Map<string, number>();
      for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
      for (const [term, freq] of counts) {
        let list = lists.get(term);
        if (!list) lists.set(term, list = { docs: [], freqs: [] });
        list.docs.push(doc);
        list.freqs.push(freq);
      }
    });
    for (const [term, list] of lists) {
      this.#postings.set(term, {
        docs: Int32Array.from(list.docs),
        freqs: Float32Array.from(list.freqs),
      });
    }
    this.#docCount = docCount;
    const f = Math.fround;
    const avgdl = f(docCount > 0 ? totalTokens / docCount : 1);
    for (let i = 0; i < 256; i++) {
      this.#normInverse[i] = f(1 / f(k1 * f(f(1 - b) + f(f(b * byte4ToInt(i)) / avgdl))));
    }
  }

  /**
   * The ASINs of the best `k` products for `query`, best first.
   *
   * @param query Keywords.
   * @param k How many at most.
   * @returns ASINs; only products sharing a term with the query.
   * @throws {RangeError} When k is not a non-negative integer.
   */
  search(query: string, k = 50): string[] {
    return this.searchWithScores(query, k).map((hit) => hit.asin);
  }

  /**
   * The best `k` products for `query` with their scores, best first.
   *
   * @param query Keywords.
   * @param k How many at most.
   * @returns The hits.
   * @throws {RangeError} When k is not a non-negative integer.
   */
  searchWithScores(query: string, k = 50): SearchHit[] {
    if (!Number.isInteger(k) || k < 0) {
      throw new RangeError(`Expected k to be a non-negative integer, got ${k}`);
    }
    const boosts = new Map<string, number>();
    for (const term of analyze(query)) boosts.set(term, (boosts.get(term) ?? 0) + 1);
    const f = Math.fround;
    const sums = new Float64Array(this.size);
    const touched: number[] = [];
    for (const [term, boost] of boosts) {
      const postings = this.#postings.get(term);
      if (!postings) continue;
      const n = postings.docs.length;
      const idf = f(Math.log(1 + (this.#docCount - n + 0.5) / (n + 0.5)));
      const weight = f(boost * idf);
      for (let i = 0; i < n; i++) {
        const doc = postings.docs[i];
        const normInverse = this.#normInverse[this.#norms[doc]];
        const score = f(weight - f(weight / f(1 + f(postings.freqs[i] * normInverse))));
        if (sums[doc] === 0) touched.push(doc);
        sums[doc] += score;
      }
    }
    const hits = touched.map((doc) => ({ asin: this.#asins[doc], score: f(sums[doc]) }));
    hits.sort((x, y) => y.score - x.score || (x.asin < y.asin ? -1 : x.asin > y.asin ? 1 : 0));
    return hits.slice(0, k);
  }
}

// ---------------------------------------------------------------------------
// Lucene's one-byte document lengths (SmallFloat.intToByte4 / byte4ToInt).

function longToInt4(i: number): number {
  const bits = 32 - Math.clz32(i);
  if (bits < 4) return i;
  const shift = bits - 4;
  return ((i >>> shift) & 0x07) | ((shift + 1) << 3);
}

function int4ToLong(i: number): number {
  const shift = (i >>> 3) - 1;
  return shift === -1 ? i & 0x07 : ((i & 0x07) | 0x08) * 2 ** shift;
}

/** Byte values below this encode lengths exactly. */
const FREE_VALUES = 255 - longToInt4(0x7fffffff);

/** A document length as Lucene stores it in one byte. */
function intToByte4(length: number): number {
  return length < FREE_VALUES ? length : FREE_VALUES + longToInt4(length - FREE_VALUES);
}

/** The length a stored byte stands for. */
function byte4ToInt(byte: number): number {
  return byte < FREE_VALUES ? byte : FREE_VALUES + int4ToLong(byte - FREE_VALUES);
}

// ---------------------------------------------------------------------------
