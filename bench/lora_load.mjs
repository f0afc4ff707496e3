#!/usr/bin/env node
// Decode with LoRA adapters on a running `ingot serve --lora A --lora B ...`:
// 4 concurrent greedy completions of 128 tokens, each on its own adapter
// (`lora: [{id: i, scale: 1}]`), against the same 4 on the base model
// (`lora: []`). Reports aggregate completion tokens/s of each, best of 3,
// and their ratio.
//
//   node bench/lora_load.mjs --url http://127.0.0.1:8080 [--streams 4]

import { parseArgs } from 'node:util';

const { values: options } = parseArgs({
  options: {
    url: { type: 'string' },
    streams: { type: 'string', default: '4' },
    'max-tokens': { type: 'string', default: '128' },
    rounds: { type: 'string', default: '3' },
  },
});
if (!options.url) throw new Error('--url is required');
const streams = Number(options.streams);
const maxTokens = Number(options['max-tokens']);
const model = (await (await fetch(`${options.url}/v1/models`)).json()).data[0].id;

async function complete(i, lora) {
  const response = await fetch(`${options.url}/v1/completions`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      model, prompt: `Stream ${i}: once upon a time`, max_tokens: maxTokens, temperature: 0,
      ignore_eos: true, lora,
    }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(JSON.stringify(body));
  return body.usage.completion_tokens;
}

async function round(adapted) {
  const started = performance.now();
  const tokens = await Promise.all(Array.from({ length: streams },
    (_, i) => complete(i, adapted ? [{ id: i, scale: 1 }] : [])));
  return tokens.reduce((a, b) => a + b, 0) / ((performance.now() - started) / 1000);
}

await round(false);  // warm-up
const best = { base: 0, adapted: 0 };
for (let r = 0; r < Number(options.rounds); ++r) {
  best.base = Math.max(best.base, await round(false));
  best.adapted = Math.max(best.adapted, await round(true));
}
console.log(`${streams} streams: base ${best.base.toFixed(1)} t/s, each on its own adapter ` +
  `${best.adapted.toFixed(1)} t/s (${(best.adapted / best.base).toFixed(2)}x)`);
