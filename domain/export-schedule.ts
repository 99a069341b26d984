/** The daily bulk build: 04:30 UTC (spec "Limits"). */
export const EXPORT_HOUR_UTC = 4;
export const EXPORT_MINUTE_UTC = 30;

/** The crontab schedule of the daily bulk build (graphile-worker's crontab runs in UTC). */
export const EXPORT_CRON_SCHEDULE = `${EXPORT_MINUTE_UTC} ${EXPORT_HOUR_UTC} * * *`;
