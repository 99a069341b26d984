/**
 * The statement version, the product's central idea: its identity and key, the reference to one
 * version, the knowable-at rule, and the "same figure / scale slip / revision" rule of versions.
 */
export * from './types.ts';
export * from './key.ts';
export type { VersionRef } from './version-ref.ts';
export * from './visibility.ts';
export * from './versions.ts';
