/**
 * urikit: URIs, URLs, IRIs and URNs exactly as the specifications say.
 * This file only re-exports; each concept lives in its own module.
 */
export * from './errors.js';
export type * from './types.js';
export * from './core.js';
export * from './scheme-of.js';
export * from './host/index.js';
export * from './iri.js';
export * from './schemes/index.js';
export * from './profiles.js';
export * from './urn/index.js';
export * from './text/index.js';
export * from './security/index.js';
