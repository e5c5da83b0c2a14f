// Punycode decoding (RFC 3492), the `xn--` labels of internationalized domain names. Our own,
// so that which `xn--` labels a domain check accepts does not depend on the Node.js version
// (Node's `url.domainToASCII` stopped decoding them along the way; its `punycode` module is
// deprecated).

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 0x80;
const MAX_INT = 0x7fffffff;
const MAX_CODE_POINT = 0x10ffff;

/** RFC 3492 section 6.1. */
function adapt(delta: number, pointCount: number, first: boolean): number {
  let scaled = first ? Math.floor(delta / DAMP) : delta >> 1;
  scaled += Math.floor(scaled / pointCount);
  let k = 0;
  while (scaled > ((BASE - T_MIN) * T_MAX) >> 1) {
    scaled = Math.floor(scaled / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * scaled) / (scaled + SKEW));
}

/** The value of a Punycode digit (a-z 0-25, 0-9 26-35, either case), else BASE. */
function digitValue(code: number): number {
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x30 && code <= 0x39) return code - 0x30 + 26;
  return BASE;
}

/**
 * The text a Punycode string (a label without its `xn--`) stands for, or null when it is not
 * valid Punycode: a non-ASCII basic part, a bad digit, input that ends inside a number, an
 * overflow, or a decoded code point that is a surrogate or past U+10FFFF. (Decoded code points
 * start at U+0080 and only grow, so none is ASCII.)
 */
export function decodePunycode(input: string): string | null {
  const output: number[] = [];
  const delimiter = Math.max(input.lastIndexOf('-'), 0);
  for (let j = 0; j < delimiter; j += 1) {
    const code = input.charCodeAt(j);
    if (code >= 0x80) return null;
    output.push(code);
  }
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  let position = delimiter > 0 ? delimiter + 1 : 0;
  while (position < input.length) {
    const oldI = i;
    let w = 1;
    for (let k = BASE; ; k += BASE) {
      if (position >= input.length) return null;
      const digit = digitValue(input.charCodeAt(position));
      position += 1;
      if (digit >= BASE || digit > Math.floor((MAX_INT - i) / w)) return null;
      i += digit * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      if (w > Math.floor(MAX_INT / (BASE - t))) return null;
      w *= BASE - t;
    }
    const length = output.length + 1;
    bias = adapt(i - oldI, length, oldI === 0);
    if (Math.floor(i / length) > MAX_INT - n) return null;
    n += Math.floor(i / length);
    i %= length;
    if (n > MAX_CODE_POINT || (n >= 0xd800 && n <= 0xdfff)) return null;
    output.splice(i, 0, n);
    i += 1;
  }
  return String.fromCodePoint(...output);
}
