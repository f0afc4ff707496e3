// LoRA adapters through the official SDK: a server started with two
// adapters (a at scale 1, b loaded at scale 0), requests choosing among
// them with llama-server's `lora` field, each greedy reply llama.cpp's for
// its adapters (tests/fixtures/golden/tiny-f16*.json), sequentially and
// all at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { haveShared, startServer, synthesizedAdapter, synthesizedModel } from './harness.mjs';

const skip = !haveShared() && '../shared is absent';
const model = 'tiny';
const golden = (name, index) => {
  const fixture = JSON.parse(readFileSync(
    path.join(import.meta.dirname, '..', 'fixtures', 'golden', `${name}.json`), 'utf8'));
  const c = fixture.cases[index];
  return { prompt: c.prompt_tokens, text: Buffer.from(c.text_hex, 'hex').toString('utf8') };
};
let dir;
let server;
let client;

before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'ingot-lora-'));
  const file = synthesizedModel(dir, 'tiny', 'f16');
  const a = synthesizedAdapter(dir, 'tiny', 11);
  const b = synthesizedAdapter(dir, 'tiny', 12);
  server = await startServer(file, ['--parallel', '4', '--threads', '2', '--alias', model,
    '--lora', a, '--lora', `${b}:0`]);
  client = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
});

after(async () => {
  if (server) assert.equal(await server.stop(), 0);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const complete = (prompt, lora) => client.completions.create({
  model, prompt, max_tokens: 16, temperature: 0, ...(lora === undefined ? {} : { lora }),
}).then((reply) => reply.choices[0].text);

test('GET /lora-adapters lists the adapters with their ids and scales', { skip }, async () => {
  const list = await fetch(`${server.baseURL.replace(/\/v1$/, '')}/lora-adapters`).then((r) => r.json());
  assert.deepEqual(list.map((a) => [a.id, a.scale]), [[0, 1], [1, 0]]);
  assert.match(list[0].path, /tiny-lora-11\.gguf$/);
});

test('each request runs with the adapters it names, as llama.cpp does', { skip }, async () => {
  const cases = [
    [golden('tiny-f16-lora-a', 0), undefined],  // the server's own: a at 1
    [golden('tiny-f16', 1), []],
    [golden('tiny-f16-lora-b', 2), [{ id: 1, scale: 1 }]],
    [golden('tiny-f16-lora-a-0.5', 3), [{ id: 0, scale: 0.5 }]],
  ];
  for (const [expected, lora] of cases) {
    assert.equal(await complete(expected.prompt, lora), expected.text, JSON.stringify(lora));
  }
  // All at once: the four share each step's batch.
  const together = await Promise.all(cases.map(([expected, lora]) => complete(expected.prompt, lora)));
  assert.deepEqual(together, cases.map(([expected]) => expected.text));
});

test('a chat request takes lora too, and an adapter id the server lacks is a 400', { skip }, async () => {
  const ask = (lora) => client.chat.completions.create({
    model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 8, temperature: 0, lora,
  });
  const adapted = await ask([{ id: 0, scale: 1 }]);
  const bare = await ask([]);
  assert.notEqual(adapted.choices[0].message.content, bare.choices[0].message.content);
  await assert.rejects(ask([{ id: 2, scale: 1 }]), (error) => {
    assert.ok(error instanceof OpenAI.BadRequestError);
    assert.equal(error.param, 'lora');
    assert.match(error.message, /adapter 2/);
    return true;
  });
});

test('MODEL:ADAPTER names an adapter as a model: listed, run alone, in the gateway info gauge', { skip }, async () => {
  const models = await client.models.list();
  assert.deepEqual(models.data.map((m) => [m.id, m.parent]),
    [['tiny-f16', undefined], ['tiny-f16:tiny-lora-11', 'tiny-f16'], ['tiny-f16:tiny-lora-12', 'tiny-f16']]);
  // b, loaded at scale 0, runs at 1 when a request names it, and without a
  // (the server's default): llama.cpp's reply for b alone.
  const expected = golden('tiny-f16-lora-b', 2);
  const reply = await client.completions.create({
    model: 'tiny-f16:tiny-lora-12', prompt: expected.prompt, max_tokens: 16, temperature: 0,
  });
  assert.equal(reply.choices[0].text, expected.text);
  await assert.rejects(
    client.completions.create({ model: 'tiny-f16:tiny-lora-13', prompt: 'x', max_tokens: 1 }),
    (error) => error instanceof OpenAI.NotFoundError);
  const metrics = await fetch(`${server.origin}/metrics`).then((r) => r.text());
  assert.match(metrics, /^ingot_lora_requests_info\{max_lora="2",running_lora_adapters="tiny-f16:tiny-lora-11,tiny-f16:tiny-lora-12",waiting_lora_adapters=""\} \d+\.\d+$/m);
  assert.match(metrics, /^ingot_kv_cache_usage_ratio (0|1|0\.\d{6})$/m);
});
