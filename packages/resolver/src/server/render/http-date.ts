/**
 * HTTP-dates (RFC 9110 §5.6.7, IMF-fixdate), formatted by arithmetic: every
 * answer carries the Last-Modified of its record, and the records of a
 * large store were changed at as many different seconds.
 */

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const twoDigits = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * The IMF-fixdate of a time in milliseconds since the epoch (whole seconds,
 * as HTTP dates have), without a Date object: the civil date from the day
 * count, by the days-from-civil inverse of H. Hinnant's "chrono-Compatible
 * Low-Level Date Algorithms" (proleptic Gregorian, as RFC 9110 §5.6.7 requires).
 *
 * @example
 * ```ts
 * httpDate(784111777000); // 'Sun, 06 Nov 1994 08:49:37 GMT'
 * httpDate(0); // 'Thu, 01 Jan 1970 00:00:00 GMT'
 * ```
 */
export function httpDate(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86400);
  const secondOfDay = seconds - days * 86400;
  // Eras of 400 years (146,097 days) starting on 0000-03-01.
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 2 : monthFromMarch - 10;
  const year = yearOfEra + era * 400 + (month <= 1 ? 1 : 0);
  // 1970-01-01 was a Thursday.
  const weekday = (((days + 4) % 7) + 7) % 7;
  const hour = Math.floor(secondOfDay / 3600);
  const minute = Math.floor(secondOfDay / 60) % 60;
  return `${DAYS[weekday]}, ${twoDigits(day)} ${MONTHS[month]} ${String(year).padStart(4, '0')} ${twoDigits(hour)}:${twoDigits(minute)}:${twoDigits(secondOfDay % 60)} GMT`;
}
