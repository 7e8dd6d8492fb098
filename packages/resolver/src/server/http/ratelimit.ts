/**
 * Rate limits, so that one crawler cannot take the service down (429
 * with `Retry-After` and the `RateLimit-Policy` / `RateLimit` fields of
 * draft-ietf-httpapi-ratelimit-headers): a token bucket per key (a
 * client's address for resolution, a token's id for the admin API).
 */

/**
 * A token bucket per key (the client's address): `perSecond` tokens are
 * added each second up to `burst`; each request takes one.
 *
 * @example
 * ```ts
 * const limiter = new RateLimiter(1, 2);
 * limiter.take('127.0.0.1', 0); // 0 (allowed)
 * limiter.take('127.0.0.1', 0); // 0 (the burst)
 * limiter.take('127.0.0.1', 0); // 1 (seconds to wait)
 * limiter.take('127.0.0.1', 1000); // 0 (a token came back)
 * ```
 */
export class RateLimiter {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  #lastSweep = 0;

  constructor(readonly perSecond: number, readonly burst: number) {}

  /**
   * The quota policy as a `RateLimit-Policy` item (draft-ietf-httpapi-ratelimit-headers
   * §3.1): `burst` requests (`q`) over the seconds a full bucket takes to
   * refill (`w`).
   *
   * @example
   * ```ts
   * new RateLimiter(100, 200).policy('client'); // 'client;q=200;w=2'
   * ```
   */
  policy(name: string): string {
    return `${name};q=${this.burst};w=${Math.max(1, Math.ceil(this.burst / this.perSecond))}`;
  }

  /** Takes a token for `key`: 0 if the request may go on, else the whole seconds until it may (for `Retry-After`). */
  take(key: string, now = Date.now()): number {
    let b = this.#buckets.get(key);
    if (!b) {
      b = { tokens: this.burst, at: now };
      this.#buckets.set(key, b);
      if (this.#buckets.size > 100_000) this.#sweep(now);
    } else {
      b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond);
      b.at = now;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond));
  }

  /** Forgets the buckets that have refilled (memory stays bounded under many clients). */
  #sweep(now: number): void {
    if (now - this.#lastSweep < 1000) return;
    this.#lastSweep = now;
    for (const [k, b] of this.#buckets) {
      if (b.tokens + ((now - b.at) / 1000) * this.perSecond >= this.burst) this.#buckets.delete(k);
    }
  }
}
