#!/usr/bin/env node
// Load test of a running or freshly started `ingot serve` (or any
// OpenAI-compatible server): concurrent streamed chat completions, measured
// from the client side over real HTTP.
//
//   node bench/load.mjs --model FILE [--binary build/release/ingot] [--parallel 4]
//   node bench/load.mjs --url http://127.0.0.1:8080   (a server already running)
//
// Scenarios:
//   streams   1, 4, 8, 16 concurrent streams: aggregate completion tokens/s,
//             p50/p99 time to first token, failed requests.
//   ttft      time to first token of a ~512-token prompt while 3 other
//             streams decode.
//   reuse     second-turn time to first token with the first turn cached, vs
//             the same-length prompt with nothing to reuse.
// Figures go to stdout as a table and, with --json FILE, as JSON.

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startServer } from '../tests/e2e/harness.mjs';

const { values: options } = parseArgs({
  options: {
    model: { type: 'string' },
    binary: { type: 'string', default: 'build/release/ingot' },
    url: { type: 'string' },
    parallel: { type: 'string', default: '4' },
    threads: { type: 'string', default: '2' },
    streams: { type: 'string', default: '1,4,8,16' },
    'max-tokens': { type: 'string', default: '128' },
    scenarios: { type: 'string', default: 'streams,ttft,reuse' },
    json: { type: 'string' },
  },
});

const maxTokens = Number(options['max-tokens']);
let servedModel = 'unknown';  // read from /v1/models once the server is up

// ---- server -------------------------------------------------------------

function startIngot() {
  return startServer(options.model, ['--parallel', options.parallel, '--threads', options.threads,
    '--max-queue', '64'], { binary: options.binary });
}

// ---- one streamed request -----------------------------------------------

// Streams one chat completion; returns its time to first token, its
// completion tokens and whether it failed.
async function streamChat(origin, messages, { max = maxTokens, seed = 1 } = {}) {
  const started = performance.now();
  const result = { ttftMs: null, tokens: 0, failed: false, error: null, cachedTokens: 0 };
  try {
    const response = await fetch(`${origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: servedModel, messages, stream: true, max_tokens: max, temperature: 1.0, seed,
        ignore_eos: true, stream_options: { include_usage: true },
      }),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const bytes of response.body) {
      buffered += decoder.decode(bytes, { stream: true });
      let end;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (!event.startsWith('data: ') || event === 'data: [DONE]') continue;
        const chunk = JSON.parse(event.slice(6));
        if (chunk.error) throw new Error(chunk.error.message);
        const delta = chunk.choices?.[0]?.delta;
        if (result.ttftMs === null && (delta?.content || delta?.reasoning_content)) {
          result.ttftMs = performance.now() - started;
        }
        if (chunk.usage) {
          result.tokens = chunk.usage.completion_tokens;
          result.cachedTokens = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
        }
      }
    }
  } catch (error) {
    result.failed = true;
    result.error = String(error.message ?? error);
  }
  result.totalMs = performance.now() - started;
  return result;
}

function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function userMessage(i) {
  return [{ role: 'user', content: `Story ${i}: write about a lighthouse keeper and a storm.` }];
}

// ---- scenarios ----------------------------------------------------------

// `concurrency` clients, each sending requests back to back until
// `requestsPerClient` are done; aggregate tokens/s over the wall time.
async function streamsScenario(origin, concurrency) {
  const requestsPerClient = concurrency >= 8 ? 1 : 2;
  const started = performance.now();
  const results = [];
  await Promise.all(Array.from({ length: concurrency }, async (_, client) => {
    for (let r = 0; r < requestsPerClient; ++r) {
      results.push(await streamChat(origin, userMessage(client * 10 + r), { seed: client * 10 + r }));
    }
  }));
  const wallS = (performance.now() - started) / 1000;
  const ok = results.filter((r) => !r.failed);
  const tokens = ok.reduce((sum, r) => sum + r.tokens, 0);
  const ttfts = ok.map((r) => r.ttftMs).filter((t) => t !== null);
  return {
    concurrency,
    requests: results.length,
    failed: results.length - ok.length,
    errors: [...new Set(results.filter((r) => r.failed).map((r) => r.error))],
    completionTokens: tokens,
    tokensPerSecond: tokens / wallS,
    ttftP50Ms: percentile(ttfts, 50),
    ttftP99Ms: percentile(ttfts, 99),
  };
}

// About 512 prompt tokens of plain prose (the exact count is reported).
function longPrompt(tag) {
  const sentence = 'The keeper climbed the stairs and trimmed the lamp before the storm reached the rocks. ';
  return [{ role: 'user', content: `${tag} ${sentence.repeat(30)}` }];
}

async function ttftScenario(origin) {
  // Three streams that decode for the whole measurement.
  const background = Array.from({ length: 3 }, (_, i) =>
    streamChat(origin, userMessage(100 + i), { max: 4 * maxTokens, seed: 100 + i }));
  // Let them reach decode: wait for each one's first token by racing a probe.
  await streamChat(origin, userMessage(199), { max: 1 });
  const measured = [];
  for (let i = 0; i < 3; ++i) measured.push(await streamChat(origin, longPrompt(`Run ${i}.`), { max: 8 }));
  const backgroundResults = await Promise.all(background);
  return {
    ttftMs: measured.map((r) => r.ttftMs),
    ttftP50Ms: percentile(measured.map((r) => r.ttftMs), 50),
    failed: measured.filter((r) => r.failed).length + backgroundResults.filter((r) => r.failed).length,
  };
}

// The second turn of a conversation: with its first turn in the cache, and
// the same prompt with the first character changed so nothing is reusable.
async function reuseScenario(origin) {
  const rows = [];
  for (let i = 0; i < 3; ++i) {
    const first = longPrompt(`Conversation ${i}.`);
    const turn1 = await streamChat(origin, first, { max: 32, seed: i });
    const followUp = [...first, { role: 'assistant', content: 'The storm passed by morning.' },
      { role: 'user', content: 'What did the keeper do next?' }];
    const warm = await streamChat(origin, followUp, { max: 8 });
    const cold = [{ ...followUp[0], content: `X${followUp[0].content.slice(1)}` }, ...followUp.slice(1)];
    const coldResult = await streamChat(origin, cold, { max: 8 });
    rows.push({ failed: turn1.failed || warm.failed || coldResult.failed, warmMs: warm.ttftMs,
      warmCached: warm.cachedTokens, coldMs: coldResult.ttftMs, coldCached: coldResult.cachedTokens });
  }
  return {
    warmTtftP50Ms: percentile(rows.map((r) => r.warmMs), 50),
    coldTtftP50Ms: percentile(rows.map((r) => r.coldMs), 50),
    warmCachedTokens: rows.map((r) => r.warmCached),
    coldCachedTokens: rows.map((r) => r.coldCached),
    failed: rows.filter((r) => r.failed).length,
  };
}

// ---- main ---------------------------------------------------------------

const fmt = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');

async function main() {
  if (!options.url && !options.model) {
    console.error('usage: node bench/load.mjs --model FILE [--binary PATH] | --url ORIGIN');
    process.exit(2);
  }
  const server = options.url ? { origin: options.url, stop: async () => {} } : await startIngot();
  const report = { parallel: Number(options.parallel), maxTokens, streams: [] };
  const scenarios = options.scenarios.split(',');
  try {
    const models = await (await fetch(`${server.origin}/v1/models`)).json();
    servedModel = models.data[0].id;
    report.model = servedModel;
    await streamChat(server.origin, userMessage(0), { max: 4 });  // warm-up
    if (scenarios.includes('streams')) {
      console.log('streams  requests  failed  completion t/s  TTFT p50 ms  TTFT p99 ms');
      for (const n of options.streams.split(',').map(Number)) {
        const row = await streamsScenario(server.origin, n);
        report.streams.push(row);
        console.log(`${String(n).padStart(7)}  ${String(row.requests).padStart(8)}  ${String(row.failed).padStart(6)}  ` +
          `${fmt(row.tokensPerSecond).padStart(14)}  ${fmt(row.ttftP50Ms).padStart(11)}  ${fmt(row.ttftP99Ms).padStart(11)}`);
        for (const error of row.errors) console.log(`         error: ${error}`);
      }
    }
    if (scenarios.includes('ttft')) {
      report.ttft = await ttftScenario(server.origin);
      console.log(`TTFT of a long prompt with 3 streams decoding: p50 ${fmt(report.ttft.ttftP50Ms)} ms ` +
        `(${report.ttft.ttftMs.map(fmt).join(', ')}), failed ${report.ttft.failed}`);
    }
    if (scenarios.includes('reuse')) {
      report.reuse = await reuseScenario(server.origin);
      console.log(`second-turn TTFT: with reuse ${fmt(report.reuse.warmTtftP50Ms)} ms ` +
        `(cached ${report.reuse.warmCachedTokens.join(', ')}), without ${fmt(report.reuse.coldTtftP50Ms)} ms ` +
        `(cached ${report.reuse.coldCachedTokens.join(', ')}), failed ${report.reuse.failed}`);
    }
  } finally {
    await server.stop();
  }
  if (options.json) writeFileSync(options.json, JSON.stringify(report, null, 2));
  const failed = report.streams.reduce((sum, r) => sum + r.failed, 0) +
    (report.ttft?.failed ?? 0) + (report.reuse?.failed ?? 0);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
