// The shared words (roles, ids, paging): plain values and functions, no I/O.
export * from './ids.js';
export * from './paging.js';
export * from './roles.js';
