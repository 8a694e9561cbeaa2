// Python's `random.Random(seed)` for a reader's TypeScript node: the Mersenne Twister,
// seeded as CPython seeds it from a text (its UTF-8 bytes followed by their SHA-512, version
// 2 of `random.seed`), so a TypeScript node draws the very numbers its Python twin draws
// (the Raft stages' election timeouts: parity, tests/tsnode/). Ported by helper R2 and
// checked against CPython (tests/tsnode/test_random.py). Only what the course's nodes use:
// `randint` and `random`.

export class Random {
  private mt: number[] = [];
  private i = 624;

  constructor(text: string) {
    if (typeof text !== "string") throw new TypeError("new Random(seed): seed ist ein Text, z. B. `${this.id}/${starts}`.");
    const bytes = [...new TextEncoder().encode(text)];
    bytes.push(...sha512(bytes));
    const key: number[] = [];  // 32-bit words, lowest first
    for (let end = bytes.length; end > 0; end -= 4) {
      let w = 0;
      const word = bytes.slice(Math.max(0, end - 4), end);
      for (const b of word) w = w * 256 + b;
      key.push(w);
    }
    const mt = this.mt;
    const mix = (k: number, f: number) =>
      Math.imul(mt[k - 1]! ^ (mt[k - 1]! >>> 30), f);
    mt[0] = 19650218;
    for (let k = 1; k < 624; k++) {
      mt[k] = (mix(k, 1812433253) + k) >>> 0;
    }
    let i = 1, j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      const x = (mt[i]! ^ mix(i, 1664525)) + key[j]! + j;
      mt[i] = x >>> 0;
      i++; j++;
      if (i >= 624) { mt[0] = mt[623]!; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      mt[i] = ((mt[i]! ^ mix(i, 1566083941)) - i) >>> 0;
      i++;
      if (i >= 624) { mt[0] = mt[623]!; i = 1; }
    }
    mt[0] = 0x80000000;
  }

  private next(): number {  // 32 random bits
    const mt = this.mt;
    if (this.i >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = (mt[k]! & 0x80000000)
          | (mt[(k + 1) % 624]! & 0x7fffffff);
        mt[k] = mt[(k + 397) % 624]! ^ (y >>> 1)
          ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.i = 0;
    }
    let y = mt[this.i++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    return (y ^ (y >>> 18)) >>> 0;
  }

  /** A float in [0, 1), as Python's `random()` (53 bits from two draws). */
  random(): number {
    const a = this.next() >>> 5, b = this.next() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** An integer from `a` to `b`, both included, as Python's `randint(a, b)`. */
  randint(a: number, b: number): number {
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || b < a || b - a >= 2 ** 32) {
      throw new RangeError(`randint(a, b): ganze Zahlen mit a ≤ b, nicht ${a} und ${b}.`);
    }
    const n = b - a + 1;
    const shift = Math.clz32(n);  // keep n's bit length
    let r = this.next() >>> shift;
    while (r >= n) r = this.next() >>> shift;
    return a + r;
  }
}

// SHA-512 (FIPS 180-4) on BigInt words. Its constants are
// the fractional parts of the square and cube roots of the
// first 80 primes.
type W8 = [bigint, bigint, bigint, bigint,
  bigint, bigint, bigint, bigint];

function sha512(bytes: number[]): number[] {
  const big = BigInt;
  const M = (big(1) << big(64)) - big(1);
  const root = (x: bigint, k: number) => {  // x ** (1/k)
    const bits = x.toString(2).length;
    let r = big(1) << big(Math.ceil(bits / k));
    for (;;) {
      const s = (big(k - 1) * r + x / r ** big(k - 1))
        / big(k);
      if (s >= r) return r;
      r = s;
    }
  };
  const primes: number[] = [];
  for (let p = 2; primes.length < 80; p++) {
    if (primes.every((q) => p % q !== 0)) primes.push(p);
  }
  const h = primes.slice(0, 8)
    .map((p) => root(big(p) << big(128), 2) & M);
  const kk = primes
    .map((p) => root(big(p) << big(192), 3) & M);
  const rot = (x: bigint, n: number) =>
    ((x >> big(n)) | (x << big(64 - n))) & M;
  const data = [...bytes, 0x80];
  while (data.length % 128 !== 112) data.push(0);
  const bitLength = bytes.length * 8;  // < 2 ** 32
  for (let i = 15; i >= 0; i--) {
    data.push(i < 4 ? (bitLength >>> (8 * i)) & 255 : 0);
  }
  for (let at = 0; at < data.length; at += 128) {
    const w: bigint[] = [];
    for (let t = 0; t < 80; t++) {
      if (t < 16) {
        let x = big(0);
        const word = data.slice(at + 8 * t, at + 8 * t + 8);
        for (const b of word) x = (x << big(8)) | big(b);
        w.push(x);
      } else {
        const a = w[t - 15]!, b = w[t - 2]!;
        const s0 = rot(a, 1) ^ rot(a, 8) ^ (a >> big(7));
        const s1 = rot(b, 19) ^ rot(b, 61) ^ (b >> big(6));
        w.push((w[t - 16]! + s0 + w[t - 7]! + s1) & M);
      }
    }
    let v = [...h] as W8;
    for (let t = 0; t < 80; t++) {
      const [a, b, c, d, e, f, g, hh] = v;
      const s1 = rot(e, 14) ^ rot(e, 18) ^ rot(e, 41);
      const ch = (e & f) ^ (~e & M & g);
      const t1 = (hh + s1 + ch + kk[t]! + w[t]!) & M;
      const s0 = rot(a, 28) ^ rot(a, 34) ^ rot(a, 39);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + maj) & M;
      v = [(t1 + t2) & M, a, b, c, (d + t1) & M, e, f, g];
    }
    v.forEach((x, i) => { h[i] = (h[i]! + x) & M; });
  }
  const out: number[] = [];
  for (const x of h) {
    for (let i = 56; i >= 0; i -= 8) {
      out.push(Number((x >> big(i)) & big(255)));
    }
  }
  return out;
}
