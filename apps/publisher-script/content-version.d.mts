/** See content-version.mjs. */
export declare const contentVersion: (code: string | Uint8Array) => string;
