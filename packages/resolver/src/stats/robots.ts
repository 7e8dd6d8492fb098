/**
 * Which requests come from robots, by their User-Agent. Statistics count
 * robots apart so that a crawler's thousand hits do not read as a
 * thousand readers (the practice of the COUNTER Code of Practice, whose
 * COUNTER-Robots list the operator can load as extra patterns).
 *
 * Matching is a case-insensitive substring test over a short list, with
 * the answer cached per User-Agent string: the same few agents make most
 * requests, so the hot path is one Map lookup.
 */

/**
 * Substrings (lower case) that mark a robot's User-Agent: the generic
 * words robots name themselves with, the HTTP libraries scripts use, and
 * this package's own link checker.
 *
 * @example
 * ```ts
 * DEFAULT_ROBOT_PATTERNS.includes('bot'); // true
 * ```
 */
export const DEFAULT_ROBOT_PATTERNS: readonly string[] = Object.freeze([
  'bot', 'crawl', 'spider', 'slurp', 'archiver', 'fetcher', 'scrapy', 'heritrix',
  'facebookexternalhit', 'mediapartners-google', 'python-requests', 'python-urllib', 'aiohttp',
  'go-http-client', 'java/', 'libwww-perl', 'wget', 'httpclient', 'okhttp', 'urikit-link-checker',
]);

/** Distinct User-Agent strings remembered; beyond it the cache starts again (a bound on memory, not on correctness). */
const CACHE_LIMIT = 10_000;

/**
 * Classifies User-Agents as robot or not, with the operator's extra
 * patterns added to the defaults.
 *
 * @example
 * ```ts
 * const robots = new RobotDetector(['harvester']);
 * [robots.isRobot('Mozilla/5.0 (compatible; Googlebot/2.1)'), robots.isRobot('OAI Harvester 2.0'), robots.isRobot('Mozilla/5.0 Firefox/120.0')];
 * // [true, true, false]
 * ```
 */
export class RobotDetector {
  readonly patterns: readonly string[];
  #cache = new Map<string, boolean>();

  constructor(extra: readonly string[] = [], base: readonly string[] = DEFAULT_ROBOT_PATTERNS) {
    this.patterns = [...base, ...extra.map((p) => p.toLowerCase()).filter((p) => p.length > 0)];
  }

  /** True if the User-Agent holds one of the patterns; an absent or empty User-Agent is not counted as a robot. */
  isRobot(userAgent: string | undefined): boolean {
    if (userAgent === undefined || userAgent === '') return false;
    const known = this.#cache.get(userAgent);
    if (known !== undefined) return known;
    const ua = userAgent.toLowerCase();
    const robot = this.patterns.some((p) => ua.includes(p));
    if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
    this.#cache.set(userAgent, robot);
    return robot;
  }
}
