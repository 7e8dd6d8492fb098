/**
 * Harvesting names from OAI-PMH 2.0 repositories (xepicur, oai_dc,
 * urikit's urn_locations) into the store, under the link checker's
 * network rules.
 */
export { harvestKey, harvestRepository } from './harvester.js';
export type { HarvestOptions, HarvestReport, HarvestSource } from './harvester.js';
export { applyPage } from './apply.js';
export type { ApplyContext, PageResult } from './apply.js';
export { DEFAULT_HARVEST_FETCH, FetchError, fetchOai, HARVEST_USER_AGENT } from './fetch.js';
export type { HarvestFetchOptions } from './fetch.js';
export { DEFAULT_RECORD_LIMITS, OAI_NS, OaiPageReader, OaiResponseError } from './oai-page.js';
export type { HarvestedRecord, MetadataElement, OaiPage, RecordLimits } from './oai-page.js';
export { HARVEST_FORMATS, recordName } from './record-names.js';
export type { HarvestFormat, RecordName } from './record-names.js';
export { DEFAULT_XML_LIMITS, XmlError, XmlScanner } from './xml-scanner.js';
export type { XmlErrorCode, XmlHandler, XmlLimits, XmlName } from './xml-scanner.js';
