import { fileURLToPath } from 'node:url';

/**
 * The real data beside the checkout (../shared): the SEC mirror and the FRED series. Tests read
 * them from here, wherever in test/ they sit; never copied into the repository.
 */
export const SHARED_SEC = fileURLToPath(new URL('../../../shared/sec', import.meta.url));
export const SHARED_MACRO = fileURLToPath(new URL('../../../shared/macro', import.meta.url));
/** The SEC mirror as a folder URL: `new URL('data.sec.gov/submissions/', SHARED_SEC_URL)`. */
export const SHARED_SEC_URL = new URL('../../../shared/sec/', import.meta.url);
