import { z } from 'zod';
import { heldSlots } from '../../db/coverage-selection.ts';
import { releaseSlot } from './queries.ts';
import { FREE_COVERAGE } from '../../domain/plans.ts';
import { coverageMode, RELEASE_PATH, SELECTION_PATH } from '../../api/coverage-gate.ts';
import { defineTool } from '../../api/define-tool.ts';
import { Cik, CikOut, dataEnvelope, Timestamp } from '../../api/schemas.ts';

// Neither route declares `companies`: reading or releasing the selection reaches no company, so it
// never claims a slot (and a full selection can always be inspected and released).

const HeldCompany = z.object({
  cik: CikOut,
  claimed_at: Timestamp.describe('when a request first reached the company and took the slot'),
  last_queried_at: Timestamp.describe('the latest request that reached the company'),
  expires_at: Timestamp.describe('the slot frees itself then unless the company is queried again (last query + window_days)'),
});

const Selection = z.object({
  mode: z.enum(['selected', 'full']).describe('selected: coverage is the companies held below (Free plan); full: every company (paid plans)'),
  limit: z.number().int().nullable().describe('companies that may be held at once; null when coverage is not chosen'),
  window_days: z.number().int().nullable().describe('days a slot is kept without a query; null when coverage is not chosen'),
  slots_used: z.number().int().describe('companies held now'),
  slots_available: z.number().int().nullable().describe('more companies that can be added; null when there is no limit'),
  companies: z.array(HeldCompany).describe('held companies, oldest claim first'),
});

export const coverageSelection = defineTool({
  name: 'coverage.selection',
  title: 'Your Free-plan company selection',
  description:
    'The companies this key holds against its Free-plan coverage slots (25, each freed 30 days after its last query), oldest first, with slots used and available. ' +
    'Any request that reaches a company not held claims a slot; with every slot held it is refused with COVERAGE_SELECTION_FULL. ' +
    `Free one with POST ${RELEASE_PATH}. Paid plans answer mode full with no limit. Reading this claims nothing.`,
  http: { method: 'GET', path: SELECTION_PATH },
  tool: false,
  plan: 'free',
  input: z.object({}),
  output: dataEnvelope(Selection),
  handler: async ({ services, auth }) => {
    const a = auth!;
    if (coverageMode(a.plan) === 'full') {
      return { data: { mode: 'full' as const, limit: null, window_days: null, slots_used: 0, slots_available: null, companies: [] } };
    }
    const companies = await heldSlots(services.sql, a.keyId, services.now());
    return {
      data: {
        mode: 'selected' as const,
        limit: FREE_COVERAGE.slots,
        window_days: FREE_COVERAGE.window_days,
        slots_used: companies.length,
        slots_available: Math.max(0, FREE_COVERAGE.slots - companies.length),
        companies,
      },
    };
  },
});

export const coverageSelectionRelease = defineTool({
  name: 'coverage.selection_release',
  title: 'Release a company from your Free-plan selection',
  description:
    'Frees the coverage slot of one company at once, so another company can be reached. Body { "cik": "320193" } (zero-padded or not). ' +
    'Releasing a company that is not held succeeds and changes nothing (released: false). Answers the slots used and available afterwards; ' +
    'paid plans hold no slots (released: false, slots_available null).',
  http: { method: 'POST', path: RELEASE_PATH },
  tool: false,
  plan: 'free',
  input: z.object({ cik: Cik }),
  output: dataEnvelope(
    z.object({
      cik: CikOut,
      released: z.boolean().describe('true when the company was held and its slot is now free; false when it was not held'),
      slots_used: z.number().int().describe('companies held after the release'),
      slots_available: z.number().int().nullable().describe('more companies that can be added; null when there is no limit'),
    }),
  ),
  annotations: { readOnlyHint: false, idempotentHint: true },
  handler: async ({ services, auth }, input) => {
    const a = auth!;
    if (coverageMode(a.plan) === 'full') return { data: { cik: input.cik, released: false, slots_used: 0, slots_available: null } };
    const now = services.now();
    const released = await releaseSlot(services.sql, a.keyId, input.cik, now);
    const used = (await heldSlots(services.sql, a.keyId, now)).length;
    return { data: { cik: input.cik, released, slots_used: used, slots_available: Math.max(0, FREE_COVERAGE.slots - used) } };
  },
});

export const SELECTION_TOOLS = [coverageSelection, coverageSelectionRelease];
