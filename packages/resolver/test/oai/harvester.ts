/**
 * A harvester written against OAI-PMH 2.0 (§3.5): asks for a list, then
 * follows resumption tokens until the empty one, and reads each header
 * (identifier, datestamp, setSpecs, the deleted status) and whether its
 * record has metadata. `ask` sends one request (to a provider in memory or
 * over HTTP) and returns the response document.
 */

/** One header as a harvester sees it. */
export interface Harvested {
  id: string;
  deleted: boolean;
  datestamp: string;
  sets: string[];
  hasMetadata: boolean;
}

/** Harvests a whole list; the pages' XML go to `keep` (for schema validation). */
export async function harvest(
  ask: (q: Record<string, string>) => Promise<string>,
  verb: 'ListIdentifiers' | 'ListRecords',
  args: Record<string, string>,
  keep: (xml: string) => string = (x) => x,
): Promise<{ headers: Harvested[]; pages: number; errors: string[] }> {
  const headers: Harvested[] = [];
  let q: Record<string, string> = { verb, ...args };
  let pages = 0;
  for (;;) {
    const xml = keep(await ask(q));
    pages++;
    const errors = [...xml.matchAll(/<error code="([^"]+)">/g)].map((m) => m[1]!);
    if (errors.length > 0) return { headers, pages, errors };
    const units = verb === 'ListRecords' ? [...xml.matchAll(/<record>([\s\S]*?)<\/record>/g)].map((m) => m[1]!) : [...xml.matchAll(/<header[\s\S]*?<\/header>/g)].map((m) => m[0]);
    for (const u of units) {
      headers.push({
        id: /<identifier>([^<]*)<\/identifier>/.exec(u)![1]!,
        deleted: /<header status="deleted">/.test(u),
        datestamp: /<datestamp>([^<]*)<\/datestamp>/.exec(u)![1]!,
        sets: [...u.matchAll(/<setSpec>([^<]*)<\/setSpec>/g)].map((m) => m[1]!),
        hasMetadata: u.includes('<metadata>'),
      });
    }
    const token = /<resumptionToken[^>]*>([^<]*)<\/resumptionToken>/.exec(xml);
    if (token === null || token[1] === '') return { headers, pages, errors: [] };
    q = { verb, resumptionToken: token[1]! };
  }
}
