/**
 * The UTC days a statistics report is asked for: a calendar date
 * `YYYY-MM-DD`, RFC 3339 §5.6 `full-date` with the day checked against
 * its month and year (§5.7, leap years by Appendix C), so that a day the
 * calendar does not have is refused where it is wrong instead of
 * selecting nothing (or, compared as text, something).
 */

/**
 * What is wrong with a day, and where: `bad-date` (not `YYYY-MM-DD`: the
 * first character out of place, or the end of a text too short),
 * `bad-month` (not 01 to 12) or `bad-day` (not a day of that month).
 *
 * @example
 * ```ts
 * const e: DayError = { code: 'bad-month', offset: 5, message: 'the month 13 is not 01 to 12' };
 * e.offset; // 5
 * ```
 */
export interface DayError {
  code: 'bad-date' | 'bad-month' | 'bad-day';
  /** The offset (UTF-16 code units) of the part at fault. */
  offset: number;
  message: string;
}

// RFC 3339 §5.6: date-fullyear "-" date-month "-" date-mday, each of digits
const SHAPE = 'dddd-dd-dd';

/** RFC 3339 Appendix C: a leap year is divisible by 4, and a century only when divisible by 400. */
function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** RFC 3339 §5.7: the last day of `month` (1 to 12) in `year`. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Undefined if `text` is a calendar date `YYYY-MM-DD` (RFC 3339 §5.6
 * full-date, every year 0000 to 9999), else what is wrong and at which
 * offset.
 *
 * @example
 * ```ts
 * utcDayError('2024-02-29'); // undefined
 * utcDayError('2026-13-45'); // { code: 'bad-month', offset: 5, message: 'the month 13 is not 01 to 12' }
 * utcDayError('2026-02-29'); // { code: 'bad-day', offset: 8, message: '2026-02 has no day 29 (it has 28)' }
 * utcDayError('2026-2-1'); // { code: 'bad-date', offset: 6, message: 'a digit was expected at offset 6 (YYYY-MM-DD)' }
 * ```
 */
export function utcDayError(text: string): DayError | undefined {
  for (let i = 0; i < SHAPE.length; i++) {
    const c = text[i];
    if (c === undefined) return { code: 'bad-date', offset: i, message: `the date ends at offset ${i} (YYYY-MM-DD)` };
    const digit = c >= '0' && c <= '9';
    if (SHAPE[i] === 'd' ? !digit : c !== '-') return { code: 'bad-date', offset: i, message: `${SHAPE[i] === 'd' ? 'a digit' : '"-"'} was expected at offset ${i} (YYYY-MM-DD)` };
  }
  if (text.length > SHAPE.length) return { code: 'bad-date', offset: SHAPE.length, message: `the date goes on past offset ${SHAPE.length} (YYYY-MM-DD)` };
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  if (month < 1 || month > 12) return { code: 'bad-month', offset: 5, message: `the month ${text.slice(5, 7)} is not 01 to 12` };
  const last = daysInMonth(year, month);
  if (day < 1 || day > last) return { code: 'bad-day', offset: 8, message: `${text.slice(0, 7)} has no day ${text.slice(8, 10)} (it has ${last})` };
  return undefined;
}
