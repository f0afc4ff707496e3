#!/usr/bin/env node
// How much large prompts stall the streams already running: 3 streams
// decode while 2 MiB chat prompts arrive one after another (each rendered,
// tokenized, then refused as longer than the context). Reports the gaps
// between streamed tokens, p50 / p99 / max, with prompt preparation on its
// pool (the default) and on the I/O thread (--prompt-threads 0), side by
// side in one sitting.
//
//   node bench/prompt_stall.mjs [--model ../shared/models/tiny-qwen3-f16.gguf] [--prompts 6]

import { parseArgs } from 'node:util';
import { startServer } from '../tests/e2e/harness.mjs';

const { values: options } = parseArgs({
  options: {
    model: { type: 'string', default: '../shared/models/tiny-qwen3-f16.gguf' },
    binary: { type: 'string', default: 'build/release/ingot' },
    prompts: { type: 'string', default: '6' },
    mib: { type: 'string', default: '2' },
  },
});

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function stream(baseURL, model, gaps, stop) {
  const response = await fetch(`${baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model, stream: true, max_tokens: 3000, ignore_eos: true, temperature: 1,
      messages: [{ role: 'user', content: 'Tell me a long story.' }],
    }),
  });
  const reader = response.body.getReader();
  let last = null;
  for (;;) {
    const { done } = await reader.read();
    if (done) break;
    const now = performance.now();
    if (last !== null && stop.measuring) gaps.push(now - last);
    last = now;
    if (stop.done) {
      await reader.cancel();
      break;
    }
  }
}

async function sitting(extraArgs) {
  const server = await startServer(options.model, ['--parallel', '4', '--threads', '1', '--max-body', '16', ...extraArgs], { binary: options.binary });
  const model = (await (await fetch(`${server.baseURL}/models`)).json()).data[0].id;
  const gaps = [];
  const stop = { measuring: false, done: false };
  const streams = [0, 1, 2].map(() => stream(server.baseURL, model, gaps, stop));
  await new Promise((resolve) => setTimeout(resolve, 1000));  // the streams are decoding
  stop.measuring = true;
  const big = 'lorem ipsum dolor sit amet, '.repeat(Math.ceil((Number(options.mib) << 20) / 28));
  const statuses = [];
  for (let i = 0; i < Number(options.prompts); i += 1) {
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: big }] }),
    });
    statuses.push(response.status);
    await response.text();
  }
  stop.measuring = false;
  stop.done = true;
  await Promise.all(streams);
  await server.stop();
  gaps.sort((a, b) => a - b);
  return { gaps: gaps.length, p50: percentile(gaps, 50), p99: percentile(gaps, 99), max: gaps[gaps.length - 1], statuses };
}

const rows = [];
for (const [label, args] of [['pool (default)', []], ['I/O thread (--prompt-threads 0)', ['--prompt-threads', '0']]]) {
  const result = await sitting(args);
  rows.push({ label, ...result });
}
console.log(`| prompt preparation | gaps | p50 ms | p99 ms | max ms | ${options.mib} MiB prompts answered |`);
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.label} | ${r.gaps} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ${r.statuses.join(' ')} |`);
}
