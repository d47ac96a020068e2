/** Kept equal to package.json's version (a test checks), so bundles need not read package.json. */
export const VERSION = '0.1.0';
