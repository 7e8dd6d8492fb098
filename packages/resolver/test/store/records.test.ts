import { describe, expect, it } from 'vitest';
import { historyJson, historyToRecord, recordData, recordToRow, rowToRecord } from '../../src/store/records.js';
import type { NameRecord } from '../../src/store/types.js';

const base: NameRecord = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'active', locations: [{ url: 'http://a.example/' }], version: 1, created: 1000, updated: 1000 };

// Records a store writes: a first version, later ones, a URN registered in
// another case than its key, and every optional field and link.
const records: Array<{ what: string; record: NameRecord }> = [
  { what: 'a first version, the URN its key', record: base },
  { what: 'a later version', record: { ...base, version: 3, updated: 5000 } },
  { what: 'a URN registered in another case than its key', record: { ...base, urn: 'URN:EX:a' } },
  { what: 'no location', record: { ...base, status: 'reserved', locations: [] } },
  {
    what: 'a move with every optional field and link',
    record: { ...base, status: 'moved', locations: [], metadata: { title: 'T', n: [1, { x: null }] }, movedTo: 'urn:ex:b', permanent: true, successor: 'urn:ex:c', reason: 'why', movedFrom: ['urn:ex:z'], predecessors: ['urn:ex:y'], version: 2, updated: 2000 },
  },
];

describe('history rows keep only what their columns do not say', () => {
  it.each(records)('$what: read back whole', ({ record }) => {
    const json = historyJson(record, recordData(record));
    const row = { id: 1, key: record.key, version: record.version, op: 'create', at: record.updated, actor: null, record: json };
    expect(historyToRecord(row)).toEqual(record);
    // Neither the key nor the version nor the time of the change is repeated.
    expect(Object.keys(JSON.parse(json) as object)).not.toContain('key');
    expect(Object.keys(JSON.parse(json) as object)).not.toContain('version');
    expect(Object.keys(JSON.parse(json) as object)).not.toContain('updated');
  });

  it.each(records)('$what: a row written before (the whole record) reads the same', ({ record }) => {
    const row = { id: 1, key: record.key, version: record.version, op: 'create', at: record.updated, actor: null, record: JSON.stringify(record) };
    expect(historyToRecord(row)).toEqual(record);
  });
});

describe('names rows keep the URN only when it is not the key', () => {
  it.each(records)('$what: read back whole', ({ record }) => {
    const row = recordToRow(record);
    expect(row.urn).toBe(record.urn === record.key ? '' : record.urn);
    expect(rowToRecord(row)).toEqual(rowToRecord({ ...row, urn: record.urn }));
    expect(rowToRecord(row).urn).toBe(record.urn);
  });
});
