/**
 * The resolution service: `startServer` and the pieces the CLI and tests
 * use. Re-exports only.
 */
export { startServer, type RunningServer } from './server.js';
export { DEFAULT_PORT, DEFAULT_LIMITS, DEFAULT_NAME_CACHE_BYTES, type ServerOptions, type ServerLimits } from './options.js';
export { UrnResolutionService, type ResolutionRequest, type ResolutionConfig } from './resolve.js';
export { readTarget, serviceOf, type RequestTarget, type Service } from './target.js';
export { classifyRequestLine } from './simple.js';
export { localResolveUrn } from './local.js';
export type { Answer } from './answer.js';
export { renderLocations, renderRecord, renderNames, renderMessage, recordJson, preferredOrder, preferredLocation, type Rendered } from './render.js';
