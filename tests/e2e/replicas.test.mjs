// Three `ingot serve` replicas behind HAProxy (Debian's package) with
// deploy/haproxy.cfg, the configuration docs/deploy.md gives: hashing on
// the conversation key (x-session-id) brings every second turn to the
// replica that cached its first, where round robin mostly does not; and a
// replica stopped mid-run loses no request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import OpenAI from 'openai';
import { haveShared, sharedModel, startServer, stopServer } from './harness.mjs';

const haproxy = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => existsSync(p));
const skip = !haveShared() ? '../shared is absent: no test models'
  : !haproxy ? 'haproxy is absent (scripts/install-deps installs it)' : false;
const config = path.resolve(import.meta.dirname, '../../deploy/haproxy.cfg');
const model = 'tiny-qwen3-f16';
const conversations = 24;
const system = { role: 'system', content: 'You answer questions about orders.' };

let replicas = [];

before(async () => {
  if (skip) return;
  replicas = await Promise.all([1, 2, 3].map(() =>
    startServer(sharedModel(`${model}.gguf`), ['--parallel', '2'])));
});

after(async () => {
  for (const replica of replicas) await replica.stop();
});

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// HAProxy on deploy/haproxy.cfg in front of the replicas, once it answers.
async function startRouter(balance) {
  const port = await freePort();
  const env = { ...process.env, INGOT_FRONTEND: `127.0.0.1:${port}`, INGOT_BALANCE: balance };
  replicas.forEach((replica, i) => { env[`INGOT_REPLICA_${i + 1}`] = `127.0.0.1:${replica.port}`; });
  const proc = spawn(haproxy, ['-db', '-f', config], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (chunk) => { stderr += chunk; });
  const origin = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; ++attempt) {
    if (proc.exitCode !== null) throw new Error(`haproxy exited: ${stderr}`);
    const answered = await fetch(`${origin}/ready`).then((r) => r.ok, () => false);
    if (answered) break;
    if (attempt > 200) throw new Error(`haproxy does not answer on ${origin}: ${stderr}`);
    await delay(25);  // polling for the listener, not waiting out a race
  }
  const client = new OpenAI({ baseURL: `${origin}/v1`, apiKey: 'unused', maxRetries: 0 });
  return { client, stop: () => stopServer(proc) };
}

// A first message unique to conversation n and long enough to fill
// several KV blocks.
function firstMessage(n) {
  const items = Array.from({ length: 24 }, (_, i) => `item ${n}-${i} (${(n * 7 + i * 13) % 97} pieces)`);
  return `Order ${n} lists ${items.join(', ')}. When does order ${n} ship?`;
}

// Both turns of conversation n; the second's prompt tokens and those it
// read from cache.
async function converse(client, n) {
  const headers = { 'x-session-id': `conversation-${n}` };
  const ask = { model, temperature: 0, chat_template_kwargs: { enable_thinking: false } };
  const first = [system, { role: 'user', content: firstMessage(n) }];
  const one = await client.chat.completions.create({ ...ask, messages: first, max_tokens: 8 },
    { headers });
  const second = [...first, { role: 'assistant', content: one.choices[0].message.content },
    { role: 'user', content: 'And the invoice?' }];
  const two = await client.chat.completions.create({ ...ask, messages: second, max_tokens: 4 },
    { headers });
  return { prompt: two.usage.prompt_tokens, cached: two.usage.prompt_tokens_details.cached_tokens };
}

// Conversations first..first+count-1, four at a time; `onProgress(done)`
// after each.
async function runConversations(client, first, count, onProgress = () => {}) {
  const results = [];
  let next = first;
  const worker = async () => {
    while (next < first + count) {
      const n = next++;
      results.push(await converse(client, n));
      await onProgress(results.length);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return results;
}

const share = (results) =>
  results.reduce((s, r) => s + r.cached, 0) / results.reduce((s, r) => s + r.prompt, 0);

test('hashing on the conversation key serves second turns from cache; round robin does not', { skip }, async (t) => {
  const hashed = await startRouter('hdr(x-session-id)');
  let byHash;
  try {
    byHash = await runConversations(hashed.client, 0, conversations);
  } finally {
    await hashed.stop();
  }
  const roundRobin = await startRouter('roundrobin');
  let byTurn;
  try {
    byTurn = await runConversations(roundRobin.client, 100, conversations);
  } finally {
    await roundRobin.stop();
  }
  t.diagnostic(`second-turn prompt tokens from cache: hashing ${(100 * share(byHash)).toFixed(1)}%, ` +
    `round robin ${(100 * share(byTurn)).toFixed(1)}%`);
  // Each second turn on hashing finds its first turn's prompt, bar the
  // last partial block and what the turn adds.
  for (const r of byHash) assert.ok(r.cached >= r.prompt / 2, JSON.stringify(r));
  assert.ok(share(byHash) > share(byTurn));
});

// Chat requests a replica answered: from its /metrics while it runs, from
// its access log once it has stopped.
const chatRoute = '/v1/chat/completions';
async function answeredByMetrics(replica) {
  const text = await fetch(`${replica.origin}/metrics`).then((r) => r.text());
  const match = text.match(new RegExp(`ingot_requests_total\\{route="${chatRoute}",status="200"\\} (\\d+)`));
  return match ? Number(match[1]) : 0;
}
const answeredByLog = (replica) =>
  replica.stderr().split('\n').filter((line) => line.includes(`route=${chatRoute} status=200`)).length;

test('a replica stopped mid-run loses no request: its conversations go to the others', { skip }, async (t) => {
  const router = await startRouter('hdr(x-session-id)');
  const [first, stopping, last] = replicas;
  const survivorsBefore = (await answeredByMetrics(first)) + (await answeredByMetrics(last));
  const stoppingBefore = answeredByLog(stopping);
  let stopped;
  try {
    const results = await runConversations(router.client, 200, conversations, async (done) => {
      if (done === 6) stopped = stopping.stop();
    });
    assert.equal(results.length, conversations);
    assert.equal(await stopped, 0);
    // Every request was answered once: by the stopped replica until it
    // stopped (it had its share of the hash), by the others after.
    const survivors = (await answeredByMetrics(first)) + (await answeredByMetrics(last)) - survivorsBefore;
    const byStopped = answeredByLog(stopping) - stoppingBefore;
    t.diagnostic(`answered by the stopped replica ${byStopped}, by the others ${survivors}`);
    assert.ok(byStopped > 0);
    assert.equal(survivors + byStopped, 2 * conversations);
    t.diagnostic(`after the stop, second-turn prompt tokens from cache: ${(100 * share(results)).toFixed(1)}%`);
  } finally {
    await router.stop();
  }
});
