// The shared words (roles, ids, paging): plain values and functions, no I/O.
export * from './error-codes.js';
export * from './ids.js';
export * from './paging.js';
export * from './roles.js';
