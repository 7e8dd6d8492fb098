// The gateway of the 1995 draft §4: resolves URNs for browsers without a URN client.
export { startGateway, createGateway } from './gateway.js';
export type { GatewayOptions } from './gateway.js';
export { negotiateFormat } from './negotiate.js';
export type { GatewayFormat } from './negotiate.js';
export { renderResultPage, renderErrorPage, gatewayHref } from './render.js';
