/**
 * Which format a gateway answers in, chosen from the browser's or
 * program's `Accept` header with q-values (RFC 9110 §12.5.1; 1995 draft
 * §3.1.1: "HTTP's Accept: header is used to indicate the desired format").
 */

/**
 * The formats a gateway can answer in.
 *
 * @example
 * ```ts
 * const f: GatewayFormat = negotiateFormat('text/urc-0');
 * f // 'text/urc-0'
 * ```
 */
export type GatewayFormat = 'text/html' | 'application/json' | 'text/urc-0';

const OFFERED: GatewayFormat[] = ['text/html', 'application/json', 'text/urc-0'];

/**
 * The offered format the `Accept` header ranks highest; HTML when there is
 * no header, when it ranks all equally (browsers send `*\/*`), or when
 * nothing offered is acceptable (a person gets a page rather than a 406).
 *
 * @example
 * ```ts
 * negotiateFormat('text/urc-0, text/html;q=0.5') // 'text/urc-0'
 * ```
 */
export function negotiateFormat(accept: string | undefined): GatewayFormat {
  if (!accept) return 'text/html';
  let best: GatewayFormat = 'text/html';
  let bestQ = -1;
  let bestSpecific = -1;
  for (const range of accept.split(',')) {
    const [typeRaw = '', ...params] = range.split(';');
    const type = typeRaw.trim().toLowerCase();
    let q = 1;
    for (const p of params) {
      const [k = '', v = ''] = p.split('=');
      if (k.trim().toLowerCase() === 'q') {
        const n = Number(v.trim());
        q = Number.isFinite(n) && n >= 0 && n <= 1 ? n : 0;
      }
    }
    if (q === 0) continue;
    for (const offered of OFFERED) {
      const specific = type === offered ? 2 : type === `${offered.split('/')[0]}/*` ? 1 : type === '*/*' ? 0 : -1;
      if (specific < 0) continue;
      // Higher q wins; at equal q the more specific range wins; at a tie HTML (first offered) stays.
      if (q > bestQ || (q === bestQ && specific > bestSpecific)) {
        best = offered;
        bestQ = q;
        bestSpecific = specific;
      }
    }
  }
  return best;
}
