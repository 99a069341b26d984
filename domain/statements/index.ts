/**
 * The statement version, the product's central idea: its identity and key, the reference to one
 * version, and the knowable-at rule. (The "same figure / new version" rule joins as versions.ts.)
 */
export * from './types.ts';
export * from './key.ts';
export type { VersionRef } from './version-ref.ts';
export * from './visibility.ts';
