import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openMacroSource } from '../../../../ingest/macro/source.ts';

describe('the FRED source', () => {
  it('refuses a base that is neither a directory nor an https publisher (plain http only on this machine)', async () => {
    await assert.rejects(openMacroSource('http://fred.stlouisfed.org'), /directory or an https/);
    await assert.rejects(openMacroSource('ftp://example.com'), /directory or an https/);
  });
});
