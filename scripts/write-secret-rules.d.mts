export const VENDOR_DIR: string;
export const MODULE_PATH: string;
export function secretRulesModule(
  tomlText: string,
  source: { gitleaksVersion: string; obtainedFrom: string; sha256: string },
): string;
export function generatedFromVendor(): string;
