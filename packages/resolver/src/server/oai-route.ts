/**
 * `/oai`: the OAI-PMH 2.0 data-provider endpoint (§3.1: GET with the
 * arguments in the query, POST with them as
 * `application/x-www-form-urlencoded`), answering `text/xml` (§3.2) from
 * the store's names; `/oai/urn_locations.xsd` serves the schema of the
 * format that carries the locations.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { URN_LOCATIONS_XSD } from '../oai/formats.js';
import type { OaiProvider } from '../oai/provider.js';

/** §3.1.1: the arguments as name/value pairs, from the query or a form body. */
function pairs(text: string): Array<[string, string]> {
  return [...new URLSearchParams(text)];
}

/**
 * Registers `GET|POST /oai` and `GET /oai/urn_locations.xsd`; `provider()`
 * gives the provider (made once the server knows its own URL).
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * const provider = new OaiProvider(new StoreOaiRepository(store.harvest), { repositoryName: 'demo', baseUrl: 'http://r.example/oai', adminEmails: ['a@r.example'], pageSize: 100 });
 * const app = Fastify();
 * registerOai(app, () => provider);
 * const r = await app.inject({ url: '/oai?verb=Identify' });
 * [r.statusCode, r.headers['content-type']]; // [200, 'text/xml; charset=utf-8']
 * (await app.inject({ method: 'POST', url: '/oai', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'verb=ListSets' })).body.includes('<setSpec>urn:isbn</setSpec>'); // true
 * await app.close();
 * await store.close();
 * ```
 */
export function registerOai(app: FastifyInstance, provider: () => OaiProvider): void {
  app.register(async (oai) => {
    oai.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    const answer = async (request: FastifyRequest, reply: FastifyReply, args: string) => {
      request.answerKind = 'oai';
      // §3.6: errors, too, are answered inside a 200 response.
      return reply.type('text/xml; charset=utf-8').header('cache-control', 'no-cache').send(await provider().respond(pairs(args)));
    };
    const xml = { 200: { description: 'the OAI-PMH response document; errors (§3.6) are inside it', content: { 'text/xml': { schema: { type: 'string' } } } } };
    const args = {
      type: 'object',
      properties: Object.fromEntries(['verb', 'identifier', 'metadataPrefix', 'from', 'until', 'set', 'resumptionToken'].map((a) => [a, { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], description: 'a repeated argument is answered with badArgument (§3.6)' }])),
    };
    const summary = 'OAI-PMH 2.0 (Identify, ListMetadataFormats, ListSets, GetRecord, ListIdentifiers, ListRecords; oai_dc, urn_locations and epicur)';
    oai.get('/oai', { schema: { summary, tags: ['harvesting'], querystring: args, response: xml } }, (request, reply) => {
      const url = request.raw.url ?? '';
      const q = url.indexOf('?');
      return answer(request, reply, q < 0 ? '' : url.slice(q + 1));
    });
    oai.post('/oai', { schema: { summary, tags: ['harvesting'], response: xml } }, (request, reply) => answer(request, reply, typeof request.body === 'string' ? request.body : ''));
    oai.get('/oai/urn_locations.xsd', { schema: { summary: 'The XML Schema of the urn_locations metadata format', tags: ['harvesting'], response: { 200: { description: 'XML Schema', content: { 'application/xml': { schema: { type: 'string' } } } } } } }, (_request, reply) => reply.type('application/xml; charset=utf-8').send(URN_LOCATIONS_XSD));
  });
}
