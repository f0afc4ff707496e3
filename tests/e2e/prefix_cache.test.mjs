// The prefix cache is the server's, not a slot's: a conversation that lands
// on another slot starts from the system prompt another conversation
// computed, in whole KV blocks, and says so in its usage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverForFile, haveShared } from './harness.mjs';

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
