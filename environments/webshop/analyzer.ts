/**
 * The analyzer the search index and its queries share, as Anserini's default
 * English analyzer: Lucene's standard tokenizer (Unicode word boundaries),
 * possessives dropped, lower-cased, Lucene's English stop words removed,
 * Porter-stemmed.
 *
 * @module
 */

/** Lucene's English stop words (`EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ("a an and are as at be but by for if in into is it no not of on or such that the their then " +
    "there these they this to was will with").split(" "),
);

/**
 * The terms the index and the queries use: Lucene's standard tokens,
 * possessives dropped, lower-cased, stop words removed, Porter-stemmed.
 *
 * @param text Any text.
 * @returns The terms, in order.
 *
 * @example Usage
 * ```ts
 * import { analyze } from "./analyzer.ts";
 * console.log(analyze("The Women's Running Shoes, x-large")); // [ "women", "run", "shoe", "x", "larg" ]
 * ```
 */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  for (let token of tokenize(text)) {
    const n = token.length;
    if (n >= 2 && (token[n - 1] === "s" || token[n - 1] === "S") && APOSTROPHES.has(token[n - 2])) {
      token = token.slice(0, n - 2);
    }
    token = lowerCase(token);
    if (STOP_WORDS.has(token)) continue;
    let stem = STEMS.get(token);
    if (stem === undefined) {
      stem = porterStem(token);
      if (STEMS.size < 200_000) STEMS.set(token, stem);
    }
    terms.push(stem);
  }
  return terms;
}

const APOSTROPHES = new Set(["'", "\u2019", "\uff07"]);
const STEMS = new Map<string, string>();

// Tokenizer: Unicode word boundaries (UAX #29) as Lucene's StandardTokenizer
// applies them, for the character classes that matter here.

const OTHER = 0;
const LETTER = 1;
const DIGIT = 2;
const MID_LETTER = 3; // joins letters: `:` `·`
const MID_NUM_LET = 4; // joins letters or digits: `.` `'` `’`
const MID_NUM = 5; // joins digits: `,` `;`
const CONNECTOR = 6; // `_` (ExtendNumLet)
const EXTEND = 7; // combining marks, format characters: belong to the character before
const ZWJ = 8;
const SINGLE = 9; // Han, Hiragana: each character a token
const KATAKANA = 10;
const EMOJI = 11;
const REGIONAL = 12;

const WORD_CLASSES = new Set([LETTER, DIGIT, SINGLE, KATAKANA, EMOJI, REGIONAL]);
const ASCII_CLASS = new Uint8Array(128).map((_, c) => {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z]/.test(ch)) return LETTER;
  if (/[0-9]/.test(ch)) return DIGIT;
  if (ch === ":") return MID_LETTER;
  if (ch === "." || ch === "'") return MID_NUM_LET;
  if (ch === "," || ch === ";") return MID_NUM;
  if (ch === "_") return CONNECTOR;
  return OTHER;
});
const MID_LETTER_CPS = new Set([0xb7, 0x387, 0x5f4, 0x2027, 0xfe13, 0xfe55, 0xff1a]);
const MID_NUM_LET_CPS = new Set([0x2018, 0x2019, 0x2024, 0xfe52, 0xff07, 0xff0e]);
const MID_NUM_CPS = new Set(
  [..."\u037e\u0589\u060c\u060d\u066c\u07f8\u2044\ufe10\ufe14\ufe50\ufe54\uff0c\uff1b"]
    .map((ch) => ch.codePointAt(0)!),
);
const CLASS_CACHE = new Map<number, number>();

function classify(cp: number): number {
  if (cp < 128) return ASCII_CLASS[cp];
  let c = CLASS_CACHE.get(cp);
  if (c === undefined) CLASS_CACHE.set(cp, c = classifyUnicode(cp));
  return c;
}

function classifyUnicode(cp: number): number {
  const ch = String.fromCodePoint(cp);
  if (cp === 0x200d) return ZWJ;
  if (MID_LETTER_CPS.has(cp)) return MID_LETTER;
  if (MID_NUM_LET_CPS.has(cp)) return MID_NUM_LET;
  if (MID_NUM_CPS.has(cp)) return MID_NUM;
  if (/\p{Regional_Indicator}/u.test(ch)) return REGIONAL;
  if (/[\p{M}\p{Emoji_Modifier}]/u.test(ch) || (/\p{Cf}/u.test(ch) && cp !== 0x200b)) return EXTEND;
  if (/\p{Emoji}/u.test(ch)) return EMOJI;
  if (/[\p{sc=Han}\p{sc=Hiragana}]/u.test(ch)) return SINGLE;
  if (/\p{sc=Katakana}/u.test(ch) || cp === 0x30fc) return KATAKANA;
  if (/[\p{L}\p{Nl}]/u.test(ch)) return LETTER;
  if (/\p{Nd}/u.test(ch)) return DIGIT;
  if (/\p{Pc}/u.test(ch)) return CONNECTOR;
  return OTHER;
}

/** Whether no word boundary falls between units i-1 and i. */
function joins(cls: number[], zwj: boolean[], riRun: number[], i: number): boolean {
  const a = cls[i - 1];
  const b = cls[i];
  if (a === REGIONAL && b === REGIONAL) return riRun[i - 1] % 2 === 1;
  if (zwj[i - 1] && b === EMOJI) return true;
  const alnumA = a === LETTER || a === DIGIT;
  const alnumB = b === LETTER || b === DIGIT;
  if (alnumA && alnumB) return true;
  if (a === KATAKANA && b === KATAKANA) return true;
  if ((alnumA || a === KATAKANA || a === CONNECTOR) && b === CONNECTOR) return true;
  if (a === CONNECTOR && (alnumB || b === KATAKANA)) return true;
  const midLetter = (c: number) => c === MID_LETTER || c === MID_NUM_LET;
  const midNum = (c: number) => c === MID_NUM || c === MID_NUM_LET;
  if (a === LETTER && midLetter(b) && cls[i + 1] === LETTER) return true;
  if (midLetter(a) && b === LETTER && cls[i - 2] === LETTER) return true;
  if (a === DIGIT && midNum(b) && cls[i + 1] === DIGIT) return true;
  if (midNum(a) && b === DIGIT && cls[i - 2] === DIGIT) return true;
  return false;
}

/** Lucene StandardTokenizer's tokens of `text` (case kept). */
function tokenize(text: string): string[] {
  const cls: number[] = [];
  const start: number[] = [];
  const end: number[] = [];
  const zwj: boolean[] = [];
  const riRun: number[] = [];
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    const next = i + (cp > 0xffff ? 2 : 1);
    const c = classify(cp);
    if ((c === EXTEND || c === ZWJ) && cls.length > 0) {
      end[end.length - 1] = next;
      zwj[zwj.length - 1] = c === ZWJ;
    } else {
      const u = cls.length;
      cls.push(c === EXTEND || c === ZWJ ? OTHER : c);
      start.push(i);
      end.push(next);
      zwj.push(false);
      riRun.push(c === REGIONAL ? (u > 0 && cls[u - 1] === REGIONAL ? riRun[u - 1] + 1 : 1) : 0);
    }
    i = next;
  }
  const tokens: string[] = [];
  let from = 0;
  for (let i = 1; i <= cls.length; i++) {
    if (i < cls.length && joins(cls, zwj, riRun, i)) continue;
    for (let u = from; u < i; u++) {
      if (WORD_CLASSES.has(cls[u])) {
        tokens.push(text.slice(start[from], end[i - 1]));
        break;
      }
    }
    from = i;
  }
  return tokens;
}

/** Java's `Character.toLowerCase`, code point by code point. */
function lowerCase(token: string): string {
  // deno-lint-ignore no-control-regex
  if (/^[\x00-\x7f]*$/.test(token)) return token.toLowerCase();
  let out = "";
  for (const ch of token) out += ch === "\u0130" ? "i" : ch.toLowerCase();
  return out;
}

// ---------------------------------------------------------------------------
// The Porter stemmer, as Lucene's PorterStemmer runs it.

/**
 * Martin Porter's stemmer in the variant Lucene uses (the reference
 * implementation: `bli` -> `ble`, `logi` -> `log`); words of one or two
 * characters are left alone.
 *
 * @param word A lower-case word.
 * @returns Its stem.
 *
 * @example Usage
 * ```ts
 * import { porterStem } from "./analyzer.ts";
 * console.log(porterStem("caresses"), porterStem("relational"), porterStem("hopping")); // caress relat hop
 * ```
 */
export function porterStem(word: string): string {
  if (word.length <= 2) return word;
  const b = word.split("");
  let k = b.length - 1;
  let j = 0;
  const cons = (i: number): boolean => {
    const c = b[i];
    if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") return false;
    return c === "y" ? i === 0 || !cons(i - 1) : true;
  };
  /** The number of vowel-consonant sequences in b[0..j]. */
  const m = (): number => {
    let n = 0;
    let i = 0;
    while (i <= j && cons(i)) i++;
    while (i <= j) {
      while (i <= j && !cons(i)) i++;
      if (i > j) break;
      n++;
      while (i <= j && cons(i)) i++;
    }
    return n;
  };
  const vowelInStem = (): boolean => {
    for (let i = 0; i <= j; i++) if (!cons(i)) return true;
    return false;
  };
  const doubleC = (i: number): boolean => i >= 1 && b[i] === b[i - 1] && cons(i);
  const cvc = (i: number): boolean =>
    i >= 2 && cons(i) && !cons(i - 1) && cons(i - 2) && b[i] !== "w" && b[i] !== "x" &&
    b[i] !== "y";
  const ends = (s: string): boolean => {
    const o = k - s.length + 1;
    if (o < 0) return false;
    for (let i = 0; i < s.length; i++) if (b[o + i] !== s[i]) return false;
    j = k - s.length;
    return true;
  };
  const setTo = (s: string): void => {
    for (let i = 0; i < s.length; i++) b[j + 1 + i] = s[i];
    k = j + s.length;
  };
  /** Tries each [suffix, replacement]: the first suffix present ends the rule. */
  const rule = (pairs: string[][], minM: number): void => {
    for (const [suffix, replacement] of pairs) {
      if (ends(suffix)) {
        if (m() > minM) setTo(replacement);
        return;
      }
    }
  };

  // Step 1ab: plurals, -ed, -ing.
  if (b[k] === "s") {
    if (ends("sses")) k -= 2;
    else if (ends("ies")) setTo("i");
    else if (b[k - 1] !== "s") k--;
  }
  if (ends("eed")) {
    if (m() > 0) k--;
  } else if ((ends("ed") || ends("ing")) && vowelInStem()) {
    k = j;
    if (ends("at")) setTo("ate");
    else if (ends("bl")) setTo("ble");
    else if (ends("iz")) setTo("ize");
    else if (doubleC(k)) {
      k--;
      if (b[k] === "l" || b[k] === "s" || b[k] === "z") k++;
    } else if (m() === 1 && cvc(k)) setTo("e");
  }
  // Step 1c: y -> i.
  if (ends("y") && vowelInStem()) b[k] = "i";
  // Step 2: double suffixes.
  if (k > 0) rule(STEP2[b[k - 1]] ?? [], 0);
  // Step 3: -ic-, -full, -ness.
  rule(STEP3[b[k]] ?? [], 0);
  // Step 4: -ant, -ence, ... when m > 1.
  if (k > 0) {
    const suffixes = STEP4[b[k - 1]] ?? [];
    for (const suffix of suffixes) {
      if (!ends(suffix)) continue;
      if (suffix === "ion" && !(j >= 0 && (b[j] === "s" || b[j] === "t"))) continue;
      if (m() > 1) k = j;
      break;
    }
  }
  // Step 5: final -e, -ll.
  j = k;
  if (b[k] === "e") {
    const a = m();
    if (a > 1 || (a === 1 && !cvc(k - 1))) k--;
  }
  if (b[k] === "l" && doubleC(k) && m() > 1) k--;
  return b.slice(0, k + 1).join("");
}

const STEP2: Record<string, string[][]> = {
  a: [["ational", "ate"], ["tional", "tion"]],
  c: [["enci", "ence"], ["anci", "ance"]],
  e: [["izer", "ize"]],
  l: [["bli", "ble"], ["alli", "al"], ["entli", "ent"], ["eli", "e"], ["ousli", "ous"]],
  o: [["ization", "ize"], ["ation", "ate"], ["ator", "ate"]],
  s: [["alism", "al"], ["iveness", "ive"], ["fulness", "ful"], ["ousness", "ous"]],
  t: [["aliti", "al"], ["iviti", "ive"], ["biliti", "ble"]],
  g: [["logi", "log"]],
};

const STEP3: Record<string, string[][]> = {
  e: [["icate", "ic"], ["ative", ""], ["alize", "al"]],
  i: [["iciti", "ic"]],
  l: [["ical", "ic"], ["ful", ""]],
  s: [["ness", ""]],
};

const STEP4: Record<string, string[]> = {
  a: ["al"],
  c: ["ance", "ence"],
  e: ["er"],
  i: ["ic"],
  l: ["able", "ible"],
  n: ["ant", "ement", "ment", "ent"],
  o: ["ion", "ou"],
  s: ["ism"],
  t: ["ate", "iti"],
  u: ["ous"],
  v: ["ive"],
  z: ["ize"],
};
