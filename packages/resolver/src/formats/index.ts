/**
 * Result formats of the resolution service (1995 draft §3.4): text/urc-0
 * and its charsets, HTML pieces, and content negotiation on Accept. How a
 * record is rendered in each format is the server's (server/render/render.ts).
 */
export { parseUrc0, formatUrc0, formatUrc0Text, Urc0SyntaxError, type Urc0Part, type ParseUrc0Options, type FormatUrc0Options } from './urc0.js';
export { urc0Charset, decodeUrc0Bytes, encodeUrc0Text, type Urc0Charset } from './charset.js';
export { negotiate, namesFormat, parseAccept, MEDIA_TYPES, type ResultFormat, type MediaRange } from './negotiate.js';
export { mediaTypeError, type MediaTypeError } from './media-type.js';
export { jsonTooDeepAt, jsonDeeperThan } from './json-depth.js';
export { dateTimeError, fullDateError, type DateError } from './rfc3339.js';
