/** The scheme barrel (issue 4): registry and codecs. */
export * from './registry.js';
