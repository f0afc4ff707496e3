#!/usr/bin/env node
// Embedding throughput of a running server (ingot serve, or llama-server
// --embeddings): 512 inputs of about 20 to 200 tokens (English words, so
// that BERT's WordPiece and Qwen's BPE count them alike), sent through
// /v1/embeddings in requests of 32 inputs by 4 concurrent clients, the same
// inputs for every server. Reports inputs/s and prompt tokens/s over the
// whole run, and each request's p50/p99 latency.
//
//   node bench/embeddings_load.mjs --url http://127.0.0.1:8080 [--json FILE]

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: options } = parseArgs({
  options: {
    url: { type: 'string' },
    inputs: { type: 'string', default: '512' },
    'per-request': { type: 'string', default: '32' },
    clients: { type: 'string', default: '4' },
    'min-words': { type: 'string', default: '18' },
    'max-words': { type: 'string', default: '180' },
    rounds: { type: 'string', default: '3' },
    json: { type: 'string' },
  },
});
if (!options.url) throw new Error('--url is required');

const words = ('the of and to in is was for on that with as by at from his an were are which this be ' +
  'or has had first one their its new after but who not they have her she two been other when there ' +
  'all during into school time may years more most only over city some world would where later up ' +
  'such used many can state about national out known university united then made team being well ' +
  'river house water music film north south east west game season year also between both under ' +
  'early against three until while however since great part because these through each local ' +
  'people several second small village market garden winter summer bridge station church road').split(' ');

// A fixed pseudo-random sequence: every server gets the same inputs.
function* numbers(seed) {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2147483648;
    yield x / 2147483648;
  }
}

function makeInputs(count, minWords, maxWords) {
  const random = numbers(42);
  const next = () => random.next().value;
  const inputs = [];
  for (let i = 0; i < count; ++i) {
    const n = minWords + Math.floor(next() * (maxWords - minWords + 1));
    const text = [];
    for (let j = 0; j < n; ++j) text.push(words[Math.floor(next() * words.length)]);
    inputs.push(text.join(' ') + '.');
  }
  return inputs;
}

let model;  // the served id, from /v1/models

async function embed(input) {
  const started = performance.now();
  const response = await fetch(`${options.url}/v1/embeddings`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model, input, encoding_format: 'float' }),
  });
  const body = await response.json();
  if (!response.ok || body.data?.length !== input.length) {
    throw new Error(`status ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  return { ms: performance.now() - started, tokens: body.usage?.prompt_tokens ?? 0 };
}

async function run(inputs) {
  const perRequest = Number(options['per-request']);
  const requests = [];
  for (let i = 0; i < inputs.length; i += perRequest) requests.push(inputs.slice(i, i + perRequest));
  const latencies = [];
  let tokens = 0;
  let next = 0;
  const client = async () => {
    while (next < requests.length) {
      const reply = await embed(requests[next++]);
      latencies.push(reply.ms);
      tokens += reply.tokens;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Number(options.clients) }, client));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return {
    inputs_per_s: inputs.length / seconds, tokens_per_s: tokens / seconds, seconds, tokens,
    p50_ms: at(0.5), p99_ms: at(0.99),
  };
}

model = (await (await fetch(`${options.url}/v1/models`)).json()).data[0].id;
const inputs = makeInputs(Number(options.inputs), Number(options['min-words']), Number(options['max-words']));
await embed(inputs.slice(0, 4));  // warm-up
const results = [];
for (let r = 0; r < Number(options.rounds); ++r) results.push(await run(inputs));
const best = results.reduce((a, b) => (b.inputs_per_s > a.inputs_per_s ? b : a));
console.log(`inputs/s ${best.inputs_per_s.toFixed(1)}  tokens/s ${best.tokens_per_s.toFixed(0)}  ` +
  `(${best.tokens} prompt tokens, ${best.seconds.toFixed(2)} s)  request p50 ${best.p50_ms.toFixed(0)} ms` +
  `  p99 ${best.p99_ms.toFixed(0)} ms  [best of ${results.length}]`);
if (options.json) writeFileSync(options.json, JSON.stringify({ best, results }, null, 2));
