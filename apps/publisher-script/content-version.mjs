// A built file's version in its address (`?v=`), one rule for the build (bundle.mjs) and the API that serves it
// (apps/api/src/features/delivery/publisher-script-files.ts): plain JavaScript, so that both can import it.
import { createHash } from 'node:crypto';

/** The start of the content's SHA-256: 10 hex digits. */
export const contentVersion = (code) => createHash('sha256').update(code).digest('hex').slice(0, 10);
