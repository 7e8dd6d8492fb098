// The gateway of the 1995 draft §4 (issue 8).
export { startGateway, createGateway } from './gateway.js';
export type { GatewayOptions } from './gateway.js';
export { negotiateFormat } from './negotiate.js';
export type { GatewayFormat } from './negotiate.js';
export { renderResultPage, renderErrorPage, gatewayHref } from './render.js';
