// Tool calling through the OpenAI SDK against a real `ingot serve` on the
// tiny Qwen3 model (random weights, Qwen3's real chat template): a call the
// request requires is well-formed and its arguments validate, because the
// grammar enforces it, not because the model behaves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Ajv from 'ajv';
import { serverForFile, haveShared } from './harness.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';
const session = serverForFile('tiny-qwen3-f16.gguf', ['--parallel', '2']);

const model = 'tiny-qwen3-f16';
const messages = [{ role: 'user', content: 'What is the weather in Paris?' }];

// Bounded strings keep a random model from writing one argument forever.
const weatherParameters = {
  type: 'object',
  properties: {
    city: { type: 'string', maxLength: 10 },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    days: { type: 'integer', minimum: 1, maximum: 7 },
  },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const timeParameters = {
  type: 'object',
  properties: { zone: { type: 'string', enum: ['UTC', 'CET', 'PST'] } },
  required: ['zone'],
  additionalProperties: false,
};
const tools = [
  { type: 'function', function: { name: 'get_weather', description: 'Weather in a city', parameters: weatherParameters } },
  { type: 'function', function: { name: 'get_time', description: 'Time in a zone', parameters: timeParameters } },
];
const ajv = new Ajv({ strict: false });
const validators = {
  get_weather: ajv.compile(weatherParameters),
  get_time: ajv.compile(timeParameters),
};

function assertValidCall(call) {
  assert.equal(call.type, 'function');
  assert.match(call.id, /^call_[A-Za-z0-9]{24}$/);
  assert.ok(call.function.name in validators, call.function.name);
  const args = JSON.parse(call.function.arguments);
  const validate = validators[call.function.name];
  assert.ok(validate(args), `${call.function.arguments}: ${ajv.errorsText(validate.errors)}`);
}

test('tool_choice "required" returns valid calls', { skip }, async () => {
  for (const seed of [1, 2, 3, 4]) {
    const reply = await session.client.chat.completions.create({
      model, messages, tools, tool_choice: 'required', seed, temperature: 1.0, max_tokens: 300,
    });
    const choice = reply.choices[0];
    assert.equal(choice.finish_reason, 'tool_calls', JSON.stringify(choice.message));
    assert.ok(choice.message.tool_calls.length >= 1);
    for (const call of choice.message.tool_calls) assertValidCall(call);
  }
});

test('a named function is the one called, once without parallel calls', { skip }, async () => {
  for (const seed of [5, 6, 7]) {
    const reply = await session.client.chat.completions.create({
      model, messages, tools, seed, temperature: 1.0, max_tokens: 300,
      tool_choice: { type: 'function', function: { name: 'get_time' } },
      parallel_tool_calls: false,
    });
    const calls = reply.choices[0].message.tool_calls;
    assert.equal(calls.length, 1);
    assert.equal(calls[0].function.name, 'get_time');
    assertValidCall(calls[0]);
  }
});

test('a streamed tool call reassembles to the same call as the whole reply', { skip }, async () => {
  const request = { model, messages, tools, tool_choice: 'required', seed: 21, temperature: 1.0, max_tokens: 300 };
  const whole = await session.client.chat.completions.create(request);
  const stream = await session.client.chat.completions.create({ ...request, stream: true });
  const calls = [];
  let finish = null;
  let firstDeltas = 0;
  for await (const chunk of stream) {
    const choice = chunk.choices[0];
    if (!choice) continue;
    if (choice.finish_reason) finish = choice.finish_reason;
    for (const delta of choice.delta?.tool_calls ?? []) {
      if (!calls[delta.index]) {
        // The first delta of a call carries its id, type and name.
        assert.ok(delta.id && delta.function?.name && delta.type === 'function');
        calls[delta.index] = { id: delta.id, type: 'function', function: { name: delta.function.name, arguments: '' } };
        firstDeltas += 1;
      }
      calls[delta.index].function.arguments += delta.function?.arguments ?? '';
    }
  }
  assert.equal(finish, 'tool_calls');
  assert.equal(firstDeltas, calls.length);
  assert.deepEqual(calls, whole.choices[0].message.tool_calls);
});

test('a full round trip: call, tool result, then an answer', { skip }, async () => {
  const first = await session.client.chat.completions.create({
    model, messages, tools, tool_choice: 'required', seed: 3, temperature: 1.0, max_tokens: 300,
  });
  const assistant = first.choices[0].message;
  const results = assistant.tool_calls.map((call) => ({
    role: 'tool', tool_call_id: call.id, content: JSON.stringify({ temperature: 21, sky: 'clear' }),
  }));
  const followUp = [...messages, assistant, ...results];
  const second = await session.client.chat.completions.create({
    model, messages: followUp, tools, seed: 3, temperature: 1.0, max_tokens: 8,
  });
  const choice = second.choices[0];
  // With "auto" the model may answer or call again; either is well-formed.
  if (choice.message.tool_calls) {
    for (const call of choice.message.tool_calls) assertValidCall(call);
  } else {
    assert.equal(typeof choice.message.content, 'string');
  }
  // The call and its result were rendered after the first turn's prompt,
  // which was reused from the cache.
  assert.ok(second.usage.prompt_tokens > first.usage.prompt_tokens);
  assert.ok(second.usage.prompt_tokens_details.cached_tokens >= first.usage.prompt_tokens);
});

test('tool_choice naming an unknown function is a 400', { skip }, async () => {
  await assert.rejects(
    session.client.chat.completions.create({
      model, messages, tools, max_tokens: 4, tool_choice: { type: 'function', function: { name: 'nope' } },
    }),
    (error) => error instanceof OpenAI.BadRequestError && error.param === 'tool_choice.function.name');
});
