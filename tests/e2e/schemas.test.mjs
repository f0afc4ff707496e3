// The JSON Schema corpus (tests/sampling/schemas) against ajv: every
// instance the C++ tests call valid or invalid is so for ajv too, so the
// grammar tests and the generation tests validate against the same truth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCorpus, compileValidator } from './schema_corpus.mjs';

const corpus = loadCorpus();

test('the schema corpus agrees with ajv', () => {
  assert.ok(corpus.length >= 30, `only ${corpus.length} schemas`);
  for (const entry of corpus) {
    const validate = compileValidator(entry);
    for (const value of entry.valid) {
      assert.ok(validate(value), `${entry.name}: ajv rejects valid ${JSON.stringify(value)}: ${JSON.stringify(validate.errors)}`);
    }
    for (const value of entry.grammar_rejects ?? []) {
      assert.ok(validate(value), `${entry.name}: grammar_rejects holds an invalid value ${JSON.stringify(value)}`);
    }
    for (const value of entry.invalid) {
      assert.ok(!validate(value), `${entry.name}: ajv accepts invalid ${JSON.stringify(value)}`);
    }
  }
});
