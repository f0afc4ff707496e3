#!/usr/bin/env node
// Decode with LoRA adapters on a running `ingot serve --lora A --lora B ...`:
// 4 concurrent greedy streamed completions of 128 tokens, each on its own
// adapter (`lora: [{id: i, scale: 1}]`), against the same 4 on the base
// model (`lora: []`). Reports the aggregate decode rate of each, best of 3,
// and their ratio.
//
// The decode rate counts the tokens that arrive while every stream is
// decoding (from the last stream's first token to the first stream's
// last) over that window, so prefill stays out of it. Each round's prompts
// are new, so that neither side starts from the other's cached prompt.
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
let prompts = 0;

// One streamed completion: the arrival time of each token.
async function stream(i, lora) {
  const response = await fetch(`${options.url}/v1/completions`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      model, prompt: `Stream ${i}, prompt ${prompts++}: once upon a time`, max_tokens: maxTokens,
      temperature: 0, ignore_eos: true, stream: true, lora,
    }),
  });
  if (!response.ok) throw new Error(await response.text());
  const arrivals = [];
  const decoder = new TextDecoder();
  let pending = '';
  for await (const bytes of response.body) {
    pending += decoder.decode(bytes, { stream: true });
    const events = pending.split('\n\n');
    pending = events.pop();
    for (const event of events) {
      const data = event.replace(/^data: /, '');
      if (data === '[DONE]') continue;
      if (JSON.parse(data).choices?.[0]?.text) arrivals.push(performance.now());
    }
  }
  return arrivals;
}

async function round(adapted) {
  const arrivals = await Promise.all(Array.from({ length: streams },
    (_, i) => stream(i, adapted ? [{ id: i, scale: 1 }] : [])));
  const begin = Math.max(...arrivals.map((a) => a[0]));
  const end = Math.min(...arrivals.map((a) => a[a.length - 1]));
  const tokens = arrivals.flat().filter((t) => t > begin && t <= end).length;
  return tokens / ((end - begin) / 1000);
}

await round(false);  // warm-up
const best = { base: 0, adapted: 0 };
for (let r = 0; r < Number(options.rounds); ++r) {
  best.base = Math.max(best.base, await round(false));
  best.adapted = Math.max(best.adapted, await round(true));
}
console.log(`${streams} streams: base ${best.base.toFixed(1)} t/s, each on its own adapter ` +
  `${best.adapted.toFixed(1)} t/s (${(best.adapted / best.base).toFixed(2)}x)`);
