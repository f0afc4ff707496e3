#!/usr/bin/env node
// The prompt cache's figures, from the client side over real HTTP.
//
//   node bench/prompt_cache.mjs --model FILE [--binary build/release/ingot]
//        [--scenarios shared,restart] [--json FILE]
//
// Scenarios:
//   shared   16 users at once, one ~2,000-token system prompt and a question
//            each, on --parallel 4: prompt tokens computed (prompt tokens
//            less cached ones, from each reply's usage) and mean time to
//            first token. Run it with --binary of a build before the shared
//            cache (slot-local reuse) for the comparison.
//   restart  one ~8,000-token conversation sent to a server with
//            --prompt-cache DIR, then to a new server on the same DIR:
//            time to first token cold, and restored from disk.
// Time to first token is the latency of a one-token reply. The word counts
// (--system-words, --conversation-words) are set for ingot-synth's
// vocabulary, which spends about six tokens on each word of the text here.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../tests/e2e/harness.mjs';

const { values: options } = parseArgs({
  options: {
    model: { type: 'string' },
    binary: { type: 'string', default: 'build/release/ingot' },
    threads: { type: 'string', default: '2' },
    scenarios: { type: 'string', default: 'shared,restart' },
    'system-words': { type: 'string', default: '330' },
    'conversation-words': { type: 'string', default: '1300' },
    json: { type: 'string' },
  },
});

const words = ['the', 'keeper', 'of', 'a', 'lighthouse', 'watched', 'storm', 'roll', 'over',
  'grey', 'sea', 'and', 'counted', 'ships', 'that', 'passed', 'in', 'night', 'while', 'lamp',
  'turned', 'slowly', 'above', 'rocks', 'where', 'gulls', 'slept', 'under', 'cold', 'wind'];

// Deterministic text of about `count` words.
function text(count, seed) {
  let state = seed;
  const out = [];
  for (let i = 0; i < count; ++i) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out.push(words[state % words.length]);
    if (i % 12 === 11) out.push('.');
  }
  return out.join(' ');
}

// One chat completion of a single token: its latency is the time to the
// first token (the prompt's prefill and one step), whatever text the
// token decodes to.
async function ask(origin, messages) {
  const started = performance.now();
  const response = await fetch(`${origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: path.basename(options.model, '.gguf'), messages, max_tokens: 1, temperature: 0,
    }),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const { usage } = await response.json();
  const ttftMs = performance.now() - started;
  return { ttftMs, prompt: usage.prompt_tokens, cached: usage.prompt_tokens_details?.cached_tokens ?? 0 };
}

async function withServer(args, work) {
  const server = await startServer(options.model, ['--threads', options.threads, ...args],
    { binary: options.binary });
  try {
    return await work(server.origin);
  } finally {
    await server.stop();
  }
}

async function sharedScenario() {
  const system = { role: 'system', content: text(Number(options['system-words']), 7) };
  return withServer(['--parallel', '4', '--max-queue', '64'], async (origin) => {
    await ask(origin, [{ role: 'user', content: 'warm up' }]);
    const replies = await Promise.all(Array.from({ length: 16 }, (_, i) =>
      ask(origin, [system, { role: 'user', content: `Question ${i}: ${text(12, 100 + i)}?` }])));
    const computed = replies.reduce((sum, r) => sum + r.prompt - r.cached, 0);
    const prompt = replies.reduce((sum, r) => sum + r.prompt, 0);
    const meanTtftMs = replies.reduce((sum, r) => sum + r.ttftMs, 0) / replies.length;
    return { requests: replies.length, promptTokens: prompt, computedTokens: computed, meanTtftMs };
  });
}

async function restartScenario() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ingot-bench-prompt-cache-'));
  const conversation = [];
  const total = Number(options['conversation-words']);
  for (let turn = 0; turn < 8; ++turn) {
    conversation.push({ role: 'user', content: text(Math.round(total / 16), 1000 + turn) });
    conversation.push({ role: 'assistant', content: text(Math.round(total / 16), 2000 + turn) });
  }
  conversation.push({ role: 'user', content: 'What happened to the keeper?' });
  const args = ['--parallel', '1', '--ctx-size', '10240', '--prompt-cache', dir];
  try {
    const cold = await withServer(args, (origin) => ask(origin, conversation));
    const restored = await withServer(args, (origin) => ask(origin, conversation));
    return { promptTokens: cold.prompt, coldTtftMs: cold.ttftMs, restoredTtftMs: restored.ttftMs,
      restoredCached: restored.cached, speedup: cold.ttftMs / restored.ttftMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const fmt = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');

async function main() {
  if (!options.model) {
    console.error('usage: node bench/prompt_cache.mjs --model FILE [--binary PATH]');
    process.exit(2);
  }
  const scenarios = options.scenarios.split(',');
  const report = { model: path.basename(options.model), binary: options.binary };
  if (scenarios.includes('shared')) {
    report.shared = await sharedScenario();
    const s = report.shared;
    console.log(`shared system prompt: ${s.requests} requests, ${s.promptTokens} prompt tokens, ` +
      `${s.computedTokens} computed, mean TTFT ${fmt(s.meanTtftMs)} ms`);
  }
  if (scenarios.includes('restart')) {
    report.restart = await restartScenario();
    const r = report.restart;
    console.log(`restart: ${r.promptTokens} prompt tokens, TTFT cold ${fmt(r.coldTtftMs)} ms, ` +
      `restored ${fmt(r.restoredTtftMs)} ms (${r.restoredCached} cached): ${fmt(r.speedup)}x`);
  }
  if (options.json) writeFileSync(options.json, JSON.stringify(report, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
