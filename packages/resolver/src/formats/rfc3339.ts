/**
 * Dates and times as a request may give them (RFC 3339 §5.6): a
 * `full-date` (`YYYY-MM-DD`, the UTC days of a statistics report) and a
 * `date-time` (a point of the change feed), each checked against the
 * calendar (§5.7: a day of its month, 29 February in leap years only by
 * Appendix C; hours, minutes and seconds in range), so that a value the
 * calendar does not have is refused where it is wrong instead of being
 * moved to another day (as `Date.parse('2026-02-30')` moves it to 2 March)
 * or compared as text.
 */

/**
 * What is wrong with a date or time, and where: `bad-date` (not of the
 * form: the first character out of place, or the end of a text too
 * short), `bad-month` (not 01 to 12), `bad-day` (not a day of that
 * month) or `bad-time` (an hour, minute, second or offset out of range).
 *
 * @example
 * ```ts
 * const e: DateError = { code: 'bad-month', offset: 5, message: 'the month 13 is not 01 to 12' };
 * e.offset; // 5
 * ```
 */
export interface DateError {
  code: 'bad-date' | 'bad-month' | 'bad-day' | 'bad-time';
  /** The offset (UTF-16 code units) of the part at fault. */
  offset: number;
  message: string;
}

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
 * The first character of `text` from `start` that does not fit `shape`
 * (`d` a digit, any other character itself), or where `text` ends too soon.
 */
function shapeError(text: string, start: number, shape: string, form: string): DateError | undefined {
  for (let i = 0; i < shape.length; i++) {
    const at = start + i;
    const c = text[at];
    if (c === undefined) return { code: 'bad-date', offset: at, message: `the text ends at offset ${at} (${form})` };
    const ok = shape[i] === 'd' ? c >= '0' && c <= '9' : c === shape[i];
    if (!ok) return { code: 'bad-date', offset: at, message: `${shape[i] === 'd' ? 'a digit' : `"${shape[i]}"`} was expected at offset ${at} (${form})` };
  }
  return undefined;
}

/** A two-digit field of `text` at `at` out of `[min, max]`, as a `bad-time` error. */
function rangeError(text: string, at: number, what: string, max: number): DateError | undefined {
  const n = Number(text.slice(at, at + 2));
  return n > max ? { code: 'bad-time', offset: at, message: `the ${what} ${text.slice(at, at + 2)} is not 00 to ${String(max).padStart(2, '0')}` } : undefined;
}

/** The date part of `text` (its first 10 characters, RFC 3339 §5.6 full-date) checked against the calendar. */
function datePartError(text: string, form: string): DateError | undefined {
  const shape = shapeError(text, 0, 'dddd-dd-dd', form);
  if (shape !== undefined) return shape;
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  if (month < 1 || month > 12) return { code: 'bad-month', offset: 5, message: `the month ${text.slice(5, 7)} is not 01 to 12` };
  const last = daysInMonth(year, month);
  if (day < 1 || day > last) return { code: 'bad-day', offset: 8, message: `${text.slice(0, 7)} has no day ${text.slice(8, 10)} (it has ${last})` };
  return undefined;
}

/**
 * Undefined if `text` is a calendar date `YYYY-MM-DD` (RFC 3339 §5.6
 * full-date, every year 0000 to 9999), else what is wrong and at which
 * offset.
 *
 * @example
 * ```ts
 * fullDateError('2024-02-29'); // undefined
 * fullDateError('2026-13-45'); // { code: 'bad-month', offset: 5, message: 'the month 13 is not 01 to 12' }
 * fullDateError('2026-02-29'); // { code: 'bad-day', offset: 8, message: '2026-02 has no day 29 (it has 28)' }
 * fullDateError('2026-2-1'); // { code: 'bad-date', offset: 6, message: 'a digit was expected at offset 6 (YYYY-MM-DD)' }
 * ```
 */
export function fullDateError(text: string): DateError | undefined {
  const form = 'YYYY-MM-DD';
  const date = datePartError(text, form);
  if (date !== undefined) return date;
  return text.length > 10 ? { code: 'bad-date', offset: 10, message: `the date goes on past offset 10 (${form})` } : undefined;
}

/**
 * Undefined if `text` is an RFC 3339 §5.6 `date-time`
 * (`YYYY-MM-DDThh:mm:ss`, a fraction of a second if any, then `Z` or an
 * offset `+hh:mm` / `-hh:mm`; `t` and `z` as §5.6 allows) of a day the
 * calendar has, else what is wrong and at which offset. A leap second
 * (second 60, §5.7) is refused: the times here are counted in
 * milliseconds since 1970 without them.
 *
 * @example
 * ```ts
 * dateTimeError('2026-11-24T12:00:00Z'); // undefined
 * dateTimeError('2026-11-24t12:00:00.25+01:00'); // undefined
 * dateTimeError('2026-02-30T00:00:00Z'); // { code: 'bad-day', offset: 8, message: '2026-02 has no day 30 (it has 28)' }
 * dateTimeError('2026-11-24T24:00:00Z'); // { code: 'bad-time', offset: 11, message: 'the hour 24 is not 00 to 23' }
 * dateTimeError('2026-11-24 12:00:00Z')?.offset; // 10
 * ```
 */
export function dateTimeError(text: string): DateError | undefined {
  const form = 'YYYY-MM-DDThh:mm:ssZ';
  const date = datePartError(text, form);
  if (date !== undefined) return date;
  if (text[10] !== 'T' && text[10] !== 't') return { code: 'bad-date', offset: 10, message: `"T" was expected at offset 10 (${form})` };
  const time = shapeError(text, 11, 'dd:dd:dd', form) ?? rangeError(text, 11, 'hour', 23) ?? rangeError(text, 14, 'minute', 59) ?? rangeError(text, 17, 'second', 59);
  if (time !== undefined) return time;
  let at = 19;
  if (text[at] === '.') {
    const digits = /^\d+/.exec(text.slice(at + 1))?.[0].length ?? 0;
    if (digits === 0) return { code: 'bad-date', offset: at + 1, message: `a digit was expected at offset ${at + 1} (a fraction of a second)` };
    at += 1 + digits;
  }
  const zone = text[at];
  if (zone === 'Z' || zone === 'z') at += 1;
  else if (zone === '+' || zone === '-') {
    const offset = shapeError(text, at + 1, 'dd:dd', form) ?? rangeError(text, at + 1, 'offset\'s hour', 23) ?? rangeError(text, at + 4, 'offset\'s minute', 59);
    if (offset !== undefined) return offset;
    at += 6;
  } else return { code: 'bad-date', offset: at, message: `"Z" or an offset (+hh:mm, -hh:mm) was expected at offset ${at} (${form})` };
  return text.length > at ? { code: 'bad-date', offset: at, message: `the time goes on past offset ${at} (${form})` } : undefined;
}
