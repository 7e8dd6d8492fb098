/**
 * A test OAI-PMH repository: a node:http server on 127.0.0.1 whose
 * answers a test writes (a function of the request's arguments), with the
 * pieces of OAI-PMH 2.0 documents to write them from. It records every
 * request it was sent.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const OAI_OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">';

export interface Fixture {
  url: string;
  requests: Array<Record<string, string>>;
  /** The User-Agent of each request. */
  userAgents: string[];
  close(): Promise<void>;
}

export type Answer = string | ((res: ServerResponse, req: IncomingMessage) => void);

/** Starts a repository answering `answer(args)` (a document, or a function that writes the response itself). */
export async function oaiFixture(answer: (args: Record<string, string>, n: number) => Answer): Promise<Fixture> {
  const requests: Array<Record<string, string>> = [];
  const userAgents: string[] = [];
  const server: Server = createServer((req, res) => {
    const args = Object.fromEntries(new URL(req.url ?? '/', 'http://x').searchParams);
    requests.push(args);
    userAgents.push(req.headers['user-agent'] ?? '');
    const a = answer(args, requests.length);
    if (typeof a === 'string') {
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
      res.end(a);
    } else a(res, req);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/oai`,
    requests,
    userAgents,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function identify(responseDate: string, granularity = 'YYYY-MM-DDThh:mm:ssZ'): string {
  return `${OAI_OPEN}<responseDate>${responseDate}</responseDate><request verb="Identify">http://repo.example/oai</request><Identify><repositoryName>test</repositoryName><baseURL>http://repo.example/oai</baseURL><protocolVersion>2.0</protocolVersion><adminEmail>a@repo.example</adminEmail><earliestDatestamp>2020-01-01T00:00:00Z</earliestDatestamp><deletedRecord>persistent</deletedRecord><granularity>${granularity}</granularity></Identify></OAI-PMH>`;
}

export function oaiError(code: string, message = ''): string {
  return `${OAI_OPEN}<responseDate>2026-11-28T10:00:00Z</responseDate><request>http://repo.example/oai</request><error code="${code}">${esc(message)}</error></OAI-PMH>`;
}

export interface FixtureRecord {
  id: string;
  datestamp?: string;
  deleted?: boolean;
  /** The metadata element, written whole. */
  metadata?: string;
}

export function listRecords(records: FixtureRecord[], token?: string, responseDate = '2026-11-28T10:00:00Z'): string {
  const recs = records.map((r) => `<record><header${r.deleted ? ' status="deleted"' : ''}><identifier>${esc(r.id)}</identifier><datestamp>${r.datestamp ?? '2026-11-28T09:00:00Z'}</datestamp></header>${r.deleted || r.metadata === undefined ? '' : `<metadata>${r.metadata}</metadata>`}</record>`).join('');
  const t = token === undefined ? '' : `<resumptionToken>${esc(token)}</resumptionToken>`;
  return `${OAI_OPEN}<responseDate>${responseDate}</responseDate><request verb="ListRecords">http://repo.example/oai</request><ListRecords>${recs}${t}</ListRecords></OAI-PMH>`;
}

/** An xepicur record of `urn` with `urls` (the first primary). */
export function epicur(urn: string, urls: string[], mediaType?: string): string {
  const res = urls.map((u, i) => `<resource><identifier scheme="url"${i === 0 ? ' role="primary"' : ''}>${esc(u)}</identifier>${mediaType !== undefined ? `<format scheme="imt">${mediaType}</format>` : ''}</resource>`).join('');
  return `<epicur xmlns="urn:nbn:de:1111-2004033116" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:nbn:de:1111-2004033116 http://www.persistent-identifier.de/xepicur/version1.0/xepicur.xsd"><administrative_data><delivery><update_status type="url_update_general"/></delivery></administrative_data><record><identifier scheme="urn:nbn:de">${esc(urn)}</identifier>${res}</record></epicur>`;
}

/** An oai_dc record with these dc:identifier values. */
export function oaiDc(identifiers: string[], title = 'A title'): string {
  return `<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${esc(title)}</dc:title>${identifiers.map((i) => `<dc:identifier>${esc(i)}</dc:identifier>`).join('')}</oai_dc:dc>`;
}
