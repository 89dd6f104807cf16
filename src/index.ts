export * from './errors/index.js';
export * from './schema/index.js';
