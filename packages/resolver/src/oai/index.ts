/**
 * The OAI-PMH 2.0 data provider: harvesting of the names and their changes.
 */
export { OaiProvider, MemoryOaiRepository } from './provider.js';
export type { OaiConfig, OaiListQuery, OaiRepository } from './provider.js';
export { EPICUR, EPICUR_NAMESPACE, EPICUR_SCHEMA, epicurScheme } from './epicur.js';
export { OAI_DC, urnLocationsFormat, URN_LOCATIONS_NAMESPACE, URN_LOCATIONS_XSD } from './formats.js';
export type { OaiItem, OaiMetadataFormat } from './formats.js';
export { isOaiIdentifier, isSpec, parseOaiRequest, parseUtcDatetime } from './protocol.js';
export type { OaiError, OaiErrorCode, OaiRequest, OaiVerb } from './protocol.js';
export { decodeResumptionToken, encodeResumptionToken } from './token.js';
export type { OaiResumption } from './token.js';
export { utcDatetime, xmlAttrs, xmlElement, xmlEscape } from './xml.js';
export { StoreOaiRepository, setOfKey } from './store-repository.js';
