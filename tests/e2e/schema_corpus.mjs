// The JSON Schema corpus of tests/sampling/schemas, and ajv validators for
// it (the draft each case names; formats in ajv-formats' full mode).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const corpusDir = path.resolve(import.meta.dirname, '../sampling/schemas');

export function loadCorpus() {
  return readdirSync(corpusDir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ name: path.basename(file, '.json'), ...JSON.parse(readFileSync(path.join(corpusDir, file), 'utf8')) }));
}

// A validate function for the case's schema; a fresh Ajv per schema so
// that `$id`s never clash.
export function compileValidator(entry) {
  const ajv = entry.draft === '07' ? new Ajv({ strict: false }) : new Ajv2020({ strict: false });
  addFormats(ajv, { mode: 'full' });
  return ajv.compile(entry.schema);
}
