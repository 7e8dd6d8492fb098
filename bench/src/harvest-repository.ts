/**
 * The repository of `npm run bench:harvest`, run as a child process:
 * argv records and page size; answers OAI-PMH Identify and ListRecords in
 * epicur on 127.0.0.1, each page made when it is asked for (record i:
 * `urn:nbn:de:101-` with its check digit, two URLs, deleted when i % 100 is
 * 99), the token the number of the next page; tells its parent the port.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mintNbn } from 'urikit';

const [records, pageSize] = process.argv.slice(2).map(Number) as [number, number];
const OPEN = '<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-11-28T10:00:00Z</responseDate><request>http://127.0.0.1/oai</request>';
const IDENTIFY = `${OPEN}<Identify><repositoryName>bench</repositoryName><baseURL>http://127.0.0.1/oai</baseURL><protocolVersion>2.0</protocolVersion><adminEmail>a@bench.example</adminEmail><earliestDatestamp>2020-01-01T00:00:00Z</earliestDatestamp><deletedRecord>persistent</deletedRecord><granularity>YYYY-MM-DDThh:mm:ssZ</granularity></Identify></OAI-PMH>`;

function recordXml(i: number): string {
  const header = `<identifier>oai:bench.example:${i}</identifier><datestamp>2026-11-01T00:00:00Z</datestamp>`;
  if (i % 100 === 99) return `<record><header status="deleted">${header}</header></record>`;
  const urn = mintNbn('urn:nbn:de:101-', { counter: 1_000_000 + i });
  return `<record><header>${header}</header><metadata><epicur xmlns="urn:nbn:de:1111-2004033116"><administrative_data><delivery><update_status type="urn_new"/></delivery></administrative_data><record><identifier scheme="urn:nbn:de">${urn}</identifier>`
    + `<resource><identifier scheme="url" role="primary">https://repo.example/item/${i}</identifier><format scheme="imt">text/html</format></resource>`
    + `<resource><identifier scheme="url">https://repo.example/file/${i}.pdf</identifier><format scheme="imt">application/pdf</format></resource></record></epicur></metadata></record>`;
}

const server = createServer((req, res) => {
  const q = new URL(req.url ?? '/', 'http://x').searchParams;
  res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
  if (q.get('verb') === 'Identify') return void res.end(IDENTIFY);
  const p = Number(q.get('resumptionToken') ?? 0);
  let body = `${OPEN}<ListRecords>`;
  for (let i = p * pageSize; i < Math.min(records, (p + 1) * pageSize); i++) body += recordXml(i);
  const last = (p + 1) * pageSize >= records;
  body += `<resumptionToken cursor="${p * pageSize}" completeListSize="${records}">${last ? '' : p + 1}</resumptionToken></ListRecords></OAI-PMH>`;
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
