/**
 * The codecs urikit ships, in the order `listSchemes()` reports them. The
 * registry is built from this list, so `getScheme('http')` works without
 * any side-effect import.
 */
import { httpScheme, httpsScheme, wsScheme, wssScheme } from './http.js';
import { telnetScheme, rloginScheme, tn3270Scheme } from './telnet.js';
import { ftpScheme } from './ftp.js';
import { gopherScheme } from './gopher.js';
import { newsScheme, nntpScheme } from './news.js';
import { waisScheme } from './wais.js';
import { prosperoScheme } from './prospero.js';
import { fileScheme } from './file.js';
import { mailtoScheme } from './mailto.js';
import { dataScheme } from './data.js';
import { urnScheme } from './urn.js';
import { afsScheme } from './generic.js';
import type { SchemeCodec } from './codec.js';

/** @internal Every codec registered before any call to `registerScheme`. */
export const BUILTIN_SCHEMES: readonly SchemeCodec<any>[] = [
  httpScheme, httpsScheme, wsScheme, wssScheme, ftpScheme, gopherScheme, newsScheme, nntpScheme, waisScheme, prosperoScheme,
  telnetScheme, rloginScheme, tn3270Scheme, fileScheme, mailtoScheme, dataScheme, urnScheme, afsScheme,
];
