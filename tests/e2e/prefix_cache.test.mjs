// The prefix cache is the server's, not a slot's: a conversation that lands
// on another slot starts from the system prompt another conversation
// computed, in whole KV blocks, and says so in its usage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { serverForFile, haveShared, startServer, sharedModel } from './harness.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';
const session = serverForFile('tiny-qwen3-f16.gguf', ['--parallel', '2']);
const model = 'tiny-qwen3-f16';

const system = {
  role: 'system',
  content: 'You are the assistant of a small bakery in a mountain village. You answer questions about ' +
    'opening hours, the bread and pastries of the day, prices, allergies and special orders for ' +
    'weddings and birthdays. You are polite, brief and precise, you never invent a product that is ' +
    'not on the list, and you always suggest calling the bakery when a question needs a person.',
};

test('a conversation on another slot starts from the system prompt another one computed', { skip }, async () => {
  const client = session.client;
  const first = await client.chat.completions.create({
    model, messages: [system, { role: 'user', content: 'When do you open?' }],
    max_tokens: 200, temperature: 0, ignore_eos: true, stream: true,
    chat_template_kwargs: { enable_thinking: false },
  });
  let started;
  const firstChunk = new Promise((resolve) => { started = resolve; });
  const drained = (async () => { for await (const chunk of first) started(chunk); })();
  await firstChunk;  // its prompt is computed, and its slot stays busy a while
  const second = await client.chat.completions.create({
    model, messages: [system, { role: 'user', content: 'Do you bake rye bread?' }], max_tokens: 4,
    temperature: 0, chat_template_kwargs: { enable_thinking: false },
  });
  await drained;
  // Whole blocks of 32 tokens, computed on the other slot.
  const cached = second.usage.prompt_tokens_details.cached_tokens;
  assert.ok(cached >= 32 && cached % 32 === 0, JSON.stringify(second.usage));
});

// --prompt-cache keeps the blocks on disk: the same conversation sent to a
// restarted server starts from them.
test('a conversation re-sent after a restart starts from the blocks --prompt-cache kept', { skip }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ingot-prompt-cache-'));
  const args = ['--prompt-cache', dir, '--prompt-cache-min', '32'];
  const ask = {
    model, messages: [system, { role: 'user', content: 'When do you open?' }], max_tokens: 6,
    temperature: 0, chat_template_kwargs: { enable_thinking: false },
  };
  const askServer = async () => {
    const server = await startServer(sharedModel('tiny-qwen3-f16.gguf'), args);
    try {
      const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
      const reply = await client.chat.completions.create(ask);
      const metrics = await (await fetch(`${server.origin}/metrics`)).text();
      return { reply, metrics };
    } finally {
      assert.equal(await server.stop(), 0);  // and writes what it queued
    }
  };
  try {
    const cold = await askServer();
    const warm = await askServer();
    assert.equal(cold.reply.usage.prompt_tokens_details.cached_tokens, 0);
    const cached = warm.reply.usage.prompt_tokens_details.cached_tokens;
    assert.ok(cached >= 64 && cached % 32 === 0, JSON.stringify(warm.reply.usage));
    assert.equal(warm.reply.choices[0].message.content, cold.reply.choices[0].message.content);
    assert.match(warm.metrics, /ingot_prompt_cache_disk_blocks_read_total [1-9]/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
