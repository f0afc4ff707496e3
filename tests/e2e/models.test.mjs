// `ingot serve --models DIR` through the official SDK: three models found
// in a directory (one in a subfolder), loaded on demand under a memory
// budget that holds only two, requests for all three at once each answered
// by the model it names (its greedy reply that of a server of that model
// alone), loads and unloads in /v1/models and /metrics, and names that try
// to leave the directory refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import OpenAI from 'openai';
import { readFileSync } from 'node:fs';
import { haveShared, sharedModel, startServer, synthesizedAdapter, synthesizedModel } from './harness.mjs';

const skip = !haveShared() && '../shared is absent';
const models = ['tiny-qwen3-f16', 'tiny-llama3-f16', 'tiny-qwen2-f16'];
const prompts = ['Once upon a time', 'The capital of France is'];
// Small caches, so that each model's footprint is mostly its weights.
const serveArgs = ['--parallel', '2', '-c', '256', '--cache-ram', '0'];
let dir;
const expected = {};  // model -> prompt -> greedy reply

const complete = (client, model, prompt) => client.completions.create({
  model, prompt, max_tokens: 8, temperature: 0,
}).then((reply) => reply.choices[0].text);

function clientFor(server) {
  return new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
}

before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'ingot-models-'));
  mkdirSync(path.join(dir, 'more'));
  copyFileSync(sharedModel('tiny-qwen3-f16.gguf'), path.join(dir, 'tiny-qwen3-f16.gguf'));
  copyFileSync(sharedModel('tiny-llama3-f16.gguf'), path.join(dir, 'more', 'tiny-llama3-f16.gguf'));
  copyFileSync(sharedModel('tiny-qwen2-f16.gguf'), path.join(dir, 'tiny-qwen2-f16.gguf'));
  // A link the operator placed into another folder (a download cache's
  // layout) is served; a file that is not GGUF is not a model.
  symlinkSync(sharedModel('stories260K.gguf'), path.join(dir, 'linked.gguf'));
  writeFileSync(path.join(dir, 'notes.gguf'), 'not a model');
  for (const model of models) {
    const file = model === 'tiny-llama3-f16' ? path.join(dir, 'more', `${model}.gguf`) : path.join(dir, `${model}.gguf`);
    const server = await startServer(file, serveArgs);
    try {
      expected[model] = {};
      for (const prompt of prompts) expected[model][prompt] = await complete(clientFor(server), model, prompt);
    } finally {
      await server.stop();
    }
  }
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const metric = (text, name, model) => {
  const match = text.match(new RegExp(`^${name}\\{model="${model}"\\} (\\d+)$`, 'm'));
  return match ? Number(match[1]) : undefined;
};

test('--models serves every model in the directory, each loaded when a request names it', { skip }, async () => {
  const server = await startServer(null, ['--models', dir, ...serveArgs]);
  try {
    const client = clientFor(server);
    const listed = (await client.models.list()).data;
    assert.deepEqual(listed.map((m) => [m.id, m.state]).sort(),
      [...models, 'linked'].map((m) => [m, 'unloaded']).sort());
    for (const model of models) {
      assert.equal(await complete(client, model, prompts[0]), expected[model][prompts[0]], model);
    }
    const after = (await client.models.list()).data;
    assert.deepEqual(after.filter((m) => models.includes(m.id)).map((m) => m.state), ['loaded', 'loaded', 'loaded']);
    assert.equal(after.find((m) => m.id === 'tiny-qwen3-f16').context_length, 256);
    for (const name of ['../tiny-qwen3-f16', '/etc/passwd', 'outside', 'notes', 'more/tiny-llama3-f16', 'linked.gguf']) {
      await assert.rejects(complete(client, name, 'x'), (error) => {
        assert.ok(error instanceof OpenAI.NotFoundError, name);
        assert.equal(error.code, 'model_not_found');
        return true;
      });
    }
    // By hand: unloaded, then loaded again.
    const post = (route, model) => fetch(`${server.origin}${route}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model }),
    });
    assert.equal((await post('/models/unload', 'tiny-qwen2-f16')).status, 200);
    assert.equal((await client.models.list()).data.find((m) => m.id === 'tiny-qwen2-f16').state, 'unloaded');
    assert.equal((await post('/models/load', 'tiny-qwen2-f16')).status, 200);
    assert.equal((await client.models.list()).data.find((m) => m.id === 'tiny-qwen2-f16').state, 'loaded');
    assert.equal((await post('/models/load', 'missing')).status, 404);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});

test('--models-config gives a model aliases, its own context, and pins another loaded', { skip }, async () => {
  const config = path.join(dir, '..', `${path.basename(dir)}-models.toml`);
  writeFileSync(config, [
    '[models.tiny-qwen3-f16]', 'aliases = ["chat"]',
    '[models.tiny-llama3-f16]', 'ctx_size = 128',
    '[models.tiny-qwen2-f16]', 'pinned = true',
  ].join('\n'));
  const server = await startServer(null, ['--models', dir, ...serveArgs, '--models-config', config,
    '--max-loaded', '2']);
  try {
    const client = clientFor(server);
    const state = async (id) => (await client.models.list()).data.find((m) => m.id === id);
    // Pinned: loaded at start (or loading), and never unloaded.
    assert.notEqual((await state('tiny-qwen2-f16')).state, 'unloaded');
    assert.deepEqual((await state('tiny-qwen3-f16')).aliases, ['chat']);
    assert.equal(await complete(client, 'chat', prompts[0]), expected['tiny-qwen3-f16'][prompts[0]]);
    assert.equal(await complete(client, 'tiny-llama3-f16', prompts[0]), expected['tiny-llama3-f16'][prompts[0]]);
    assert.equal((await state('tiny-llama3-f16')).context_length, 128);
    // Two may be loaded: the pinned one stayed, qwen3 went for llama3.
    assert.equal((await state('tiny-qwen2-f16')).state, 'loaded');
    assert.equal((await state('tiny-qwen3-f16')).state, 'unloaded');
    const unload = await fetch(`${server.origin}/models/unload`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tiny-qwen2-f16' }),
    });
    assert.equal(unload.status, 409);
    assert.equal((await unload.json()).error.code, 'model_pinned');
  } finally {
    assert.equal(await server.stop(), 0);
    rmSync(config, { force: true });
  }
});

test('--idle-unload unloads a model idle that long, and the next request loads it again', { skip }, async () => {
  const server = await startServer(null, ['--models', dir, ...serveArgs, '--idle-unload', '1']);
  try {
    const client = clientFor(server);
    const state = async () => (await client.models.list()).data.find((m) => m.id === 'tiny-qwen3-f16').state;
    assert.equal(await complete(client, 'tiny-qwen3-f16', prompts[0]), expected['tiny-qwen3-f16'][prompts[0]]);
    // The unload is the registry's timer's to make: watch for it, for at
    // most a minute.
    let seen = await state();
    for (let i = 0; i < 600 && seen !== 'unloaded'; ++i) {
      await delay(100);
      seen = await state();
    }
    assert.equal(seen, 'unloaded');
    assert.equal(await complete(client, 'tiny-qwen3-f16', prompts[1]), expected['tiny-qwen3-f16'][prompts[1]]);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});

// The acceptance run: three models and two adapters of one of them,
// requests for all five at once under a memory budget for two models.
test('under a memory budget for two models, requests for three models and two adapters at once all get their own', { skip }, async (t) => {
  const fleet = mkdtempSync(path.join(os.tmpdir(), 'ingot-models-budget-'));
  try {
    copyFileSync(sharedModel('tiny-qwen3-f16.gguf'), path.join(fleet, 'tiny-qwen3-f16.gguf'));
    copyFileSync(sharedModel('tiny-llama3-f16.gguf'), path.join(fleet, 'tiny-llama3-f16.gguf'));
    synthesizedModel(fleet, 'tiny', 'f16');
    synthesizedAdapter(fleet, 'tiny', 11);
    synthesizedAdapter(fleet, 'tiny', 12);
    const fleetModels = ['tiny-qwen3-f16', 'tiny-llama3-f16', 'tiny-f16'];
    // Each model's footprint as the server measures it.
    let footprints;
    {
      const server = await startServer(null, ['--models', fleet, ...serveArgs]);
      try {
        const client = clientFor(server);
        for (const model of fleetModels) await complete(client, model, 'x');
        const text = await fetch(`${server.origin}/metrics`).then((r) => r.text());
        footprints = fleetModels.map((model) => metric(text, 'ingot_model_memory_bytes', model));
      } finally {
        await server.stop();
      }
    }
    const total = footprints.reduce((a, b) => a + b, 0);
    const largestPair = total - Math.min(...footprints);
    const budgetMib = Math.floor((largestPair + total) / 2 / 2 ** 20);
    assert.ok(budgetMib * 2 ** 20 >= largestPair && budgetMib * 2 ** 20 < total, JSON.stringify(footprints));

    // What each name answers: a server of that model alone, or llama.cpp
    // for the synthetic model and its adapters.
    const asks = [];
    for (const model of ['tiny-qwen3-f16', 'tiny-llama3-f16']) {
      for (const prompt of prompts) asks.push({ model, prompt, text: expected[model][prompt], max: 8 });
    }
    for (const [model, c] of [['tiny-f16', golden('tiny-f16', 1)],
      ['tiny-f16:tiny-lora-11', golden('tiny-f16-lora-a', 0)],
      ['tiny-f16:tiny-lora-12', golden('tiny-f16-lora-b', 2)]]) {
      asks.push({ model, prompt: c.prompt, text: c.text, max: 16 });
    }
    const queue = [...asks, ...asks, ...asks];
    const server = await startServer(null, ['--models', fleet, ...serveArgs, '--memory-budget', String(budgetMib)]);
    try {
      const client = clientFor(server);
      const loadedCounts = [];
      let next = 0;
      const worker = async () => {
        while (next < queue.length) {
          const { model, prompt, text, max } = queue[next++];
          const reply = await client.completions.create({ model, prompt, max_tokens: max, temperature: 0 });
          assert.equal(reply.choices[0].text, text, model);
          const states = (await client.models.list()).data.filter((m) => !m.parent).map((m) => m.state);
          loadedCounts.push(states.filter((s) => s !== 'unloaded').length);
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
      assert.ok(Math.max(...loadedCounts) <= 2, JSON.stringify(loadedCounts));
      const text = await fetch(`${server.origin}/metrics`).then((r) => r.text());
      const loads = fleetModels.map((model) => metric(text, 'ingot_model_loads_total', model));
      const unloads = fleetModels.map((model) => metric(text, 'ingot_model_unloads_total', model));
      t.diagnostic(`budget ${budgetMib} MiB for footprints ${footprints.map((b) => (b / 2 ** 20).toFixed(1))} MiB: ` +
        `${queue.length} requests, loads ${loads}, unloads ${unloads}`);
      assert.ok(loads.every((n) => n >= 1));
      assert.ok(unloads.reduce((a, b) => a + b, 0) >= 1);
      assert.match(text, /^ingot_requests_active\{model="tiny-[a-z0-9]+-f16"\} \d+$/m);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  } finally {
    rmSync(fleet, { recursive: true, force: true });
  }
});

// llama.cpp's greedy reply for a golden case (tests/fixtures/golden).
const golden = (name, index) => {
  const fixture = JSON.parse(readFileSync(
    path.join(import.meta.dirname, '..', 'fixtures', 'golden', `${name}.json`), 'utf8'));
  const c = fixture.cases[index];
  return { prompt: c.prompt_tokens, text: Buffer.from(c.text_hex, 'hex').toString('utf8') };
};

test('adapters in the directory are models MODEL:ADAPTER, run on their base beside other models', { skip }, async () => {
  const adapters = mkdtempSync(path.join(os.tmpdir(), 'ingot-models-adapters-'));
  try {
    synthesizedModel(adapters, 'tiny', 'f16');
    synthesizedAdapter(adapters, 'tiny', 11);
    synthesizedAdapter(adapters, 'tiny', 12);
    copyFileSync(sharedModel('tiny-qwen3-f16.gguf'), path.join(adapters, 'tiny-qwen3-f16.gguf'));
    const server = await startServer(null, ['--models', adapters, '--parallel', '4', '--threads', '2',
      '--max-loaded', '2']);
    try {
      const client = clientFor(server);
      const listed = (await client.models.list()).data.map((m) => [m.id, m.parent]);
      assert.deepEqual(listed, [['tiny-f16', undefined], ['tiny-f16:tiny-lora-11', 'tiny-f16'],
        ['tiny-f16:tiny-lora-12', 'tiny-f16'], ['tiny-qwen3-f16', undefined]]);
      // The base, each adapter alone (llama.cpp's replies at scale 1), and
      // another model, all at once and twice over.
      const cases = [
        ['tiny-f16', golden('tiny-f16', 1)],
        ['tiny-f16:tiny-lora-11', golden('tiny-f16-lora-a', 0)],
        ['tiny-f16:tiny-lora-12', golden('tiny-f16-lora-b', 2)],
      ];
      const asks = [...cases, ...cases].map(([model, c]) => client.completions.create({
        model, prompt: c.prompt, max_tokens: 16, temperature: 0,
      }).then((reply) => [reply.model, reply.choices[0].text]));
      const other = complete(client, 'tiny-qwen3-f16', prompts[1]);
      assert.deepEqual(await Promise.all(asks), [...cases, ...cases].map(([model, c]) => [model, c.text]));
      assert.equal(await other, expected['tiny-qwen3-f16'][prompts[1]]);
      await assert.rejects(complete(client, 'tiny-f16:tiny-lora-13', 'x'),
        (error) => error instanceof OpenAI.NotFoundError);
      await assert.rejects(complete(client, 'tiny-qwen3-f16:tiny-lora-11', 'x'),
        (error) => error instanceof OpenAI.NotFoundError);
      const metrics = await fetch(`${server.origin}/metrics`).then((r) => r.text());
      assert.match(metrics, /^ingot_lora_requests_info\{max_lora="2",running_lora_adapters="tiny-f16:tiny-lora-11,tiny-f16:tiny-lora-12",waiting_lora_adapters=""\} \d+\.\d+$/m);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  } finally {
    rmSync(adapters, { recursive: true, force: true });
  }
});
