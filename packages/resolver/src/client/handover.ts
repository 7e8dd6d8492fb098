/**
 * The handover of an authority from one urikit resolver to another, as
 * one operation over both admin APIs (1995 draft §6A: publishers "hand
 * over the resolution to one or more hosts in the future"; the procedure
 * is in docs/resolver.md, "Handing over an authority"). The new resolver
 * already mirrors the authority (`serve --mirror`); then:
 *
 * ```text
 *   1. old: PUT /admin/handover {redirect: false}  no more writes there
 *   2. wait `settleMs`                              every process of it sees that
 *   3. new: POST /admin/mirror/promote              a last harvest, then writes here
 *   4. old: PUT /admin/handover {redirect: true}    every name: 301 to the new one
 * ```
 *
 * Names are answered throughout: by the old resolver until step 4, by the
 * new one after, which holds every record by then.
 */

/**
 * The two resolvers, their admin tokens and the authority.
 *
 * @example
 * ```ts
 * const o: HandoverOptions = { authority: 'urn:nbn:de:101-', from: 'https://a.example', fromToken: 'ta', to: 'https://b.example', toToken: 'tb' };
 * o.settleMs ?? 2000; // 2000
 * ```
 */
export interface HandoverOptions {
  authority: string;
  /** The old resolver's base URL. */
  from: string;
  fromToken: string;
  /** The new resolver's base URL (it mirrors the authority). */
  to: string;
  toToken: string;
  /** Time between stopping the writes and the last harvest (default 2000 ms: the store's change poll of every process, twice). */
  settleMs?: number;
  /** Told of each step as it is done. */
  onStep?: (step: string) => void;
  fetch?: typeof fetch;
}

/**
 * What a handover did: each step with its answer, and the last harvest's
 * counts.
 *
 * @example
 * ```ts
 * const r: HandoverReport = { ok: true, steps: [], harvest: { pages: 1, applied: 0 } };
 * r.ok; // true
 * ```
 */
export interface HandoverReport {
  ok: boolean;
  steps: Array<{ step: string; status: number; body: unknown }>;
  harvest?: { pages: number; applied: number };
  error?: string;
}

/**
 * Hands `authority` over from `from` to `to`, stopping at the first step
 * that fails (each step can be run again: all of them are idempotent).
 *
 * @example
 * ```ts
 * // Nothing listens there: the first step fails, nothing else is asked.
 * const r = await handOver({ authority: 'urn:isbn', from: 'http://127.0.0.1:1', fromToken: 't', to: 'http://127.0.0.1:1', toToken: 't' });
 * [r.ok, r.steps.length]; // [false, 0]
 * ```
 */
export async function handOver(opts: HandoverOptions): Promise<HandoverReport> {
  const f = opts.fetch ?? fetch;
  const from = opts.from.replace(/\/+$/, '');
  const to = opts.to.replace(/\/+$/, '');
  const report: HandoverReport = { ok: false, steps: [] };
  const call = async (step: string, url: string, method: string, token: string, body: unknown): Promise<boolean> => {
    let res: Response;
    try {
      res = await f(url, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
    } catch (e) {
      report.error = `${step}: ${url} is not reached: ${(e as Error).message}`;
      return false;
    }
    const text = await res.text();
    let parsed: unknown = text;
    try { parsed = JSON.parse(text); } catch { /* a body that is no JSON is kept as text */ }
    report.steps.push({ step, status: res.status, body: parsed });
    if (!res.ok) { report.error = `${step}: ${method} ${url} answered ${res.status}`; return false; }
    opts.onStep?.(step);
    return true;
  };
  if (!(await call('stop writes at the old resolver', `${from}/admin/handover`, 'PUT', opts.fromToken, { authority: opts.authority, to, redirect: false }))) return report;
  await new Promise((r) => setTimeout(r, opts.settleMs ?? 2000));
  if (!(await call('last harvest and promotion at the new resolver', `${to}/admin/mirror/promote`, 'POST', opts.toToken, { authority: opts.authority }))) return report;
  const h = (report.steps.at(-1)!.body as { harvest?: { pages?: number; applied?: number } }).harvest;
  report.harvest = { pages: h?.pages ?? 0, applied: h?.applied ?? 0 };
  if (!(await call('redirect at the old resolver', `${from}/admin/handover`, 'PUT', opts.fromToken, { authority: opts.authority, to, redirect: true }))) return report;
  report.ok = true;
  return report;
}
