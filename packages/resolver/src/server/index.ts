/**
 * The resolution service: `startServer` and the pieces the CLI and tests
 * use. Re-exports only.
 */
export { startServer, type RunningServer } from './server.js';
export { DEFAULT_PORT, DEFAULT_LIMITS, DEFAULT_NAME_CACHE_BYTES, DEFAULT_SHUTDOWN_TIMEOUT_MS, type ServerOptions, type ServerLimits, type LinkCheckerOptions } from './options.js';
export { UrnResolutionService, type ResolutionRequest, type ResolutionConfig, type ResolutionExtras } from './resolution/resolve.js';
export { readTarget, serviceOf, type RequestTarget, type Service } from './resolution/target.js';
export { classifyRequestLine } from './http/simple.js';
export { ClientAddresses, forwardedFor, forwardedNode } from './http/client-address.js';
export { localResolveUrn } from './resolution/local.js';
export { checkStoreLinks, LinkWorker, type StoreLinkCheckOptions } from './link-worker.js';
export { HarvestWorker, type HarvestJob } from './harvest-worker.js';
export { Mirrors, mirrorHarvestSource, writeGuard, type MirrorSource } from './mirror.js';
export { registerAdminHandover } from './admin/handover.js';
export { withHealth, healthLine, locationRank, type HealthNote, type ShownLocation } from './render/location-health.js';
export { registerAdminReports, type AdminReportOptions } from './admin/reports.js';
export { registerAdminMint } from './admin/mint.js';
export { registerAdminHarvests } from './admin/harvests.js';
export { registerOai } from './oai-route.js';
export { adminAuth, problem, scopedPrefix, inScope, isKeyText } from './admin/scope.js';
export type { Answer } from './render/answer.js';
export { renderLocations, renderRecord, renderNames, renderMessage, recordJson, preferredOrder, preferredLocation, type Rendered } from './render/render.js';
