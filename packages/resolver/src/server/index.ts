/**
 * The resolution service: `startServer` and the pieces the CLI and tests
 * use. Re-exports only.
 */
export { startServer, type RunningServer } from './server.js';
export { DEFAULT_PORT, DEFAULT_LIMITS, DEFAULT_NAME_CACHE_BYTES, DEFAULT_SHUTDOWN_TIMEOUT_MS, type ServerOptions, type ServerLimits, type LinkCheckerOptions } from './options.js';
export { UrnResolutionService, type ResolutionRequest, type ResolutionConfig, type ResolutionExtras } from './resolve.js';
export { readTarget, serviceOf, type RequestTarget, type Service } from './target.js';
export { classifyRequestLine } from './simple.js';
export { ClientAddresses, forwardedFor, forwardedNode } from './client-address.js';
export { localResolveUrn } from './local.js';
export { checkStoreLinks, LinkWorker, type StoreLinkCheckOptions } from './link-worker.js';
export { withHealth, healthLine, locationRank, type HealthNote, type ShownLocation } from './location-health.js';
export { registerAdminReports, type AdminReportOptions } from './admin-reports.js';
export { registerAdminMint } from './admin-mint.js';
export { registerOai } from './oai-route.js';
export { adminAuth, problem, scopedPrefix, inScope, isKeyText } from './admin-scope.js';
export type { Answer } from './answer.js';
export { renderLocations, renderRecord, renderNames, renderMessage, recordJson, preferredOrder, preferredLocation, type Rendered } from './render.js';
