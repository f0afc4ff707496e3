#!/usr/bin/env node
// Soak test: many clients for a long time against one `ingot serve`,
// mixing every kind of request, then a report of what was served, every
// status seen, the requests that should have succeeded and did not (the
// figure that must be 0), and the server's resident memory sampled every
// 10 s (it must not grow after the first minute).
//
//   node bench/soak.mjs [--minutes 10] [--clients 16] [--parallel 4]
//                       [--model ../shared/models/tiny-qwen3-f16.gguf]
//
// Request kinds, picked at random by each client: whole chat, streamed
// chat, response_format json_schema, tool calls (tool_choice required),
// a stream aborted at a random point, malformed JSON (400), an invalid
// field (400), an oversized body (413), and a /metrics scrape.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
// The official SDK, from the end-to-end tests' pinned packages.
const { default: OpenAI } = await import(new URL('../tests/e2e/node_modules/openai/index.mjs', import.meta.url));
import { startServer } from '../tests/e2e/harness.mjs';

const { values: options } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    clients: { type: 'string', default: '16' },
    parallel: { type: 'string', default: '4' },
    model: { type: 'string', default: '../shared/models/tiny-qwen3-f16.gguf' },
    binary: { type: 'string', default: 'build/release/ingot' },
  },
});

const deadline = Date.now() + Number(options.minutes) * 60_000;
const server = await startServer(options.model, ['--parallel', options.parallel, '--threads', '1', '--ctx-size', '2048'], { binary: options.binary });
const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'x', maxRetries: 0, timeout: 120_000 });
const model = (await client.models.list()).data[0].id;
const messages = [{ role: 'user', content: 'Tell me about the weather in Paris.' }];
const schema = {
  type: 'object',
  properties: { city: { type: 'string', maxLength: 12 }, celsius: { type: 'integer', minimum: -40, maximum: 50 } },
  required: ['city', 'celsius'],
  additionalProperties: false,
};
const tools = [{ type: 'function', function: { name: 'get_weather', parameters: schema } }];

const statuses = new Map();
const unexpected = [];
const served = new Map();
const count = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const big = 'x'.repeat(9 << 20);

async function raw(path, body, type = 'application/json') {
  const response = await fetch(`${server.origin}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
  await response.text();
  return response.status;
}

const kinds = {
  async whole() {
    const reply = await client.chat.completions.create({ model, messages, max_tokens: 16 + Math.floor(Math.random() * 48), temperature: 1 });
    return reply.choices[0].finish_reason ? 200 : 'no finish';
  },
  async streamed() {
    const stream = await client.chat.completions.create({ model, messages, max_tokens: 48, temperature: 1, stream: true, stream_options: { include_usage: true } });
    let usage = null;
    for await (const chunk of stream) usage = chunk.usage ?? usage;
    return usage ? 200 : 'no usage chunk';
  },
  async schema() {
    const reply = await client.chat.completions.create({
      model, messages, max_tokens: 120, temperature: 1,
      response_format: { type: 'json_schema', json_schema: { name: 'weather', schema } },
    });
    const choice = reply.choices[0];
    if (choice.finish_reason === 'stop') JSON.parse(choice.message.content);
    return 200;
  },
  async tools() {
    const reply = await client.chat.completions.create({ model, messages, tools, tool_choice: 'required', max_tokens: 120, temperature: 1 });
    const choice = reply.choices[0];
    if (choice.finish_reason === 'tool_calls') JSON.parse(choice.message.tool_calls[0].function.arguments);
    return 200;
  },
  async aborted() {
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model, messages, max_tokens: 400, temperature: 1, stream: true, ignore_eos: true }, { signal: controller.signal });
    const after = Math.floor(Math.random() * 20);
    let n = 0;
    for await (const _ of stream) if (++n >= after) controller.abort();
    return 'aborted';
  },
  async malformed() {
    return raw('/v1/chat/completions', '{"model": ' + model.slice(0, 3));
  },
  async invalid() {
    return raw('/v1/chat/completions', JSON.stringify({ model, messages, temperature: 1e400 }).replace('null', '1e400'));
  },
  async oversized() {
    return raw('/v1/chat/completions', JSON.stringify({ model, messages: [{ role: 'user', content: big }] }));
  },
  async metrics() {
    const response = await fetch(`${server.origin}/metrics`);
    const text = await response.text();
    return text.includes('ingot_requests_total') || response.status !== 200 ? response.status : 'no metrics';
  },
};
const expected = { whole: 200, streamed: 200, schema: 200, tools: 200, aborted: 'aborted', malformed: 400, invalid: 400, oversized: 413, metrics: 200 };
const weights = ['whole', 'whole', 'streamed', 'streamed', 'schema', 'tools', 'aborted', 'malformed', 'invalid', 'oversized', 'metrics'];

async function clientLoop() {
  while (Date.now() < deadline) {
    const kind = pick(weights);
    let outcome;
    try {
      outcome = await kinds[kind]();
    } catch (error) {
      outcome = error.status ?? (error.name === 'APIUserAbortError' || error.name === 'AbortError' ? 'aborted' : `${error.name}: ${error.message}`);
    }
    count(statuses, `${kind} ${outcome}`);
    count(served, kind);
    if (outcome !== expected[kind]) unexpected.push(`${kind}: ${outcome}`);
  }
}

function rssKiB() {
  const status = readFileSync(`/proc/${server.proc.pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+)/)[1]);
}
const samples = [];
const sampler = setInterval(() => samples.push({ s: Math.round((Date.now() - (deadline - Number(options.minutes) * 60_000)) / 1000), rss: rssKiB() }), 10_000);

await Promise.all(Array.from({ length: Number(options.clients) }, clientLoop));
clearInterval(sampler);
const exitCode = await server.stop();

const total = [...served.values()].reduce((a, b) => a + b, 0);
console.log(`soak: ${options.minutes} min, ${options.clients} clients, --parallel ${options.parallel}: ${total} requests`);
console.log('| kind and outcome | count |');
console.log('|---|---|');
for (const [key, n] of [...statuses.entries()].sort()) console.log(`| ${key} | ${n} |`);
console.log(`unexpected outcomes: ${unexpected.length}`);
for (const line of unexpected.slice(0, 20)) console.log(`  ${line}`);
const after = samples.filter((x) => x.s >= 60);
if (after.length > 0) {
  const base = after[0].rss;
  const peak = Math.max(...after.map((x) => x.rss));
  console.log(`rss (MiB) every 10 s: ${samples.map((x) => (x.rss / 1024).toFixed(0)).join(' ')}`);
  console.log(`growth after the first minute: ${(((peak - base) / base) * 100).toFixed(1)}% (${(base / 1024).toFixed(0)} -> peak ${(peak / 1024).toFixed(0)} MiB)`);
}
console.log(`server exit code after SIGTERM: ${exitCode}`);
process.exit(unexpected.length === 0 && exitCode === 0 ? 0 : 1);
