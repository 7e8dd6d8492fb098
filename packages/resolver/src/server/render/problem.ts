/**
 * Problem details (RFC 9457): the one way every refusal of the service,
 * the admin API and the gateway is written, whatever carries it (a fastify
 * reply, an `Answer` value, or raw bytes on a connection no route
 * answers). `type` is `about:blank` (§4.2.1): the `title` is the status's
 * own phrase, and the extension members (`code`, `offset`, `pointer`,
 * `detail`...) say what and where.
 */

/** The media type of a problem document (RFC 9457 §3). */
export const PROBLEM_JSON = 'application/problem+json';

/**
 * The problem document for `status`, as sent: JSON and a newline.
 *
 * @example
 * ```ts
 * problemDocument(400, 'Invalid URN', { code: 'bad-nid', offset: 4 });
 * // '{"type":"about:blank","title":"Invalid URN","status":400,"code":"bad-nid","offset":4}\n'
 * ```
 */
export function problemDocument(status: number, title: string, extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ type: 'about:blank', title, status, ...extra })}\n`;
}
