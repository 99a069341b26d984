/** The daily bulk build: 04:30 UTC (spec "Limits"). */
export const EXPORT_HOUR_UTC = 4;
export const EXPORT_MINUTE_UTC = 30;

/** The first 04:30 UTC strictly after `now`. */
export function nextExportAt(now: Date): Date {
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), EXPORT_HOUR_UTC, EXPORT_MINUTE_UTC));
  if (at.getTime() <= now.getTime()) at.setUTCDate(at.getUTCDate() + 1);
  return at;
}
