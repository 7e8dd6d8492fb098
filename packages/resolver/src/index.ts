/**
 * @urikit/resolver: the URN resolution service (server, store, formats)
 * and its client, gateway and web page. Re-exports only.
 */
export * from './errors/resolver-error.js';
export * from './server/index.js';
export * from './store/index.js';
export * from './formats/index.js';
export * from './client/index.js';
export * from './gateway/index.js';
export * from './web/index.js';
export * from './demo/index.js';
export * from './links/index.js';
export * from './stats/index.js';
export * from './oai/index.js';
export * from './harvest/index.js';
export { csvField, toCsv } from './reports/csv.js';
export * from './defaults/index.js';
