// Every tool-call family, each on one synthetic model served with one of
// the family's real templates (`serve --chat-template-file`): a required
// call and a named function through the official `openai` package (chat
// completions whole and streamed, Responses streamed) and
// `@anthropic-ai/sdk` (Messages streamed), each call validating against its
// schema, and a round trip in each API that renders the call and its
// result through the template and continues the turn. The weights are
// random: the calls are well-formed because the family's grammar holds
// them, not because the model behaves.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import Ajv from 'ajv';
import { haveShared, ingotBinary, sharedDir, startServer, synthesizedModel } from './harness.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';

// One template per family (tests/chat covers every template's rendering).
const families = [
  ['generic', 'microsoft-Phi-3.5-mini-instruct.jinja'],
  ['hermes', 'Qwen-Qwen3-0.6B.jinja'],
  ['llama3', 'meta-llama-Llama-3.1-8B-Instruct.jinja'],
  ['mistral-array', 'mistralai-Mistral-Nemo-Instruct-2407.jinja'],
  ['mistral-tagged', 'Mistral-Small-3.2-24B-Instruct-2506.jinja'],
  ['harmony', 'openai-gpt-oss-120b.jinja'],
  ['qwen3-coder', 'Qwen3.5-4B.jinja'],
  ['seed-oss', 'ByteDance-Seed-OSS.jinja'],
  ['glm', 'GLM-4.6.jinja'],
  ['hunyuan', 'tencent-Hy3.jinja'],
  ['minimax-m2', 'MiniMax-M2.jinja'],
  ['minimax-m3', 'MiniMax-M3.jinja'],
  ['deepseek-v3.2-dsml', 'deepseek-ai-DeepSeek-V3.2.jinja'],
  ['deepseek-v4-dsml', 'deepseek-ai-DeepSeek-V4.jinja'],
  ['minicpm', 'openbmb-MiniCPM5-1B.jinja'],
  ['functionary-v3.1', 'meetkai-functionary-medium-v3.1.jinja'],
  ['functionary-v3.2', 'meetkai-functionary-medium-v3.2.jinja'],
  ['deepseek-r1', 'llama-cpp-deepseek-r1.jinja'],
  ['deepseek-v3.1', 'deepseek-ai-DeepSeek-V3.1.jinja'],
  ['kimi-k2', 'moonshotai-Kimi-K2.jinja'],
  ['solar-open', 'upstage-Solar-Open-100B.jinja'],
  ['gemma4', 'google-gemma-4-31B-it.jinja'],
  ['gigachat3', 'GigaChat3-10B-A1.8B.jinja'],
  ['gigachat3.1', 'GigaChat3.1-10B-A1.8B.jinja'],
  ['apriel', 'unsloth-Apriel-1.5.jinja'],
  ['nemotron-v2', 'NVIDIA-Nemotron-Nano-v2.jinja'],
  ['command-r7b', 'CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja'],
  ['apertus', 'Apertus-8B-Instruct.jinja'],
  ['pythonic', 'LFM2.5-8B-A1B.jinja'],
  ['granite3', 'ibm-granite-granite-3.3-2B-Instruct.jinja'],
  ['command-r-plus', 'CohereForAI-c4ai-command-r-plus-tool_use.jinja'],
];

// Bounded strings and enums keep a random model from writing one argument
// forever; the nested object and array reach the families that write
// them as elements or Python literals. Command R+'s template needs every
// parameter's description.
const weatherParameters = {
  type: 'object',
  properties: {
    city: { type: 'string', maxLength: 8, description: 'City name' },
    days: { type: 'integer', minimum: 1, maximum: 7, description: 'Days ahead' },
    units: { type: 'object', description: 'Units', properties: { scale: { type: 'string', enum: ['C', 'F'] } }, required: ['scale'], additionalProperties: false },
    hours: { type: 'array', description: 'Hours of the day', items: { type: 'integer', minimum: 0, maximum: 23 }, maxItems: 2 },
  },
  required: ['city', 'days', 'units'],
  additionalProperties: false,
};
const timeParameters = {
  type: 'object',
  properties: { zone: { type: 'string', enum: ['UTC', 'CET', 'PST'], description: 'Time zone' } },
  required: ['zone'],
  additionalProperties: false,
};
const chatTools = [
  { type: 'function', function: { name: 'get_weather', description: 'Weather in a city', parameters: weatherParameters } },
  { type: 'function', function: { name: 'get_time', description: 'Time in a zone', parameters: timeParameters } },
];
const responsesTools = chatTools.map(({ function: f }) => ({ type: 'function', name: f.name, description: f.description, parameters: f.parameters, strict: false }));
const messagesTools = chatTools.map(({ function: f }) => ({ name: f.name, description: f.description, input_schema: f.parameters }));
const ajv = new Ajv({ strict: false });
const validators = { get_weather: ajv.compile(weatherParameters), get_time: ajv.compile(timeParameters) };
const question = 'What is the weather in Paris?';
// A thinking template's block closes at once: the grammar then holds the call.
const noThinking = { reasoning_budget: 0 };

function assertValid(name, args, where) {
  assert.ok(name in validators, `${where}: ${name}`);
  const validate = validators[name];
  assert.ok(validate(args), `${where}: ${JSON.stringify(args)}: ${ajv.errorsText(validate.errors)}`);
}

let dir;
let model;
before(() => {
  if (skip) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'ingot-tool-families-'));
  model = synthesizedModel(dir, 'tiny', 'q8_0');
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function withFamilyServer(family, template, body) {
  const server = await startServer(model, [
    '--chat-template-file', path.join(sharedDir, 'fixtures', 'templates', template), '--alias', 'm',
  ]);
  try {
    const openai = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
    const anthropic = new Anthropic({ baseURL: server.origin, apiKey: 'unused', maxRetries: 0 });
    const listed = await openai.models.list();
    assert.equal(listed.data[0].tool_call_family, family);
    await body({ openai, anthropic });
  } finally {
    assert.equal(await server.stop(), 0);
  }
}

async function chatRequiredWholeAndStreamed(openai, family) {
  const request = {
    model: 'm', messages: [{ role: 'user', content: question }], tools: chatTools, tool_choice: 'required',
    parallel_tool_calls: false, seed: 11, temperature: 1.0, max_tokens: 400, ...noThinking,
  };
  const whole = await openai.chat.completions.create(request);
  const choice = whole.choices[0];
  assert.equal(choice.finish_reason, 'tool_calls', `${family}: ${JSON.stringify(choice.message)}`);
  assert.equal(choice.message.tool_calls.length, 1);
  for (const call of choice.message.tool_calls) {
    assertValid(call.function.name, JSON.parse(call.function.arguments), `${family} chat`);
  }
  const calls = [];
  let finish = null;
  for await (const chunk of await openai.chat.completions.create({ ...request, stream: true })) {
    const delta = chunk.choices[0];
    if (!delta) continue;
    finish = delta.finish_reason ?? finish;
    for (const piece of delta.delta?.tool_calls ?? []) {
      if (!calls[piece.index]) {
        assert.ok(piece.id && piece.function?.name, `${family}: the first delta names the call`);
        calls[piece.index] = { id: piece.id, type: 'function', function: { name: piece.function.name, arguments: '' } };
      }
      calls[piece.index].function.arguments += piece.function?.arguments ?? '';
    }
  }
  assert.equal(finish, 'tool_calls', family);
  assert.deepEqual(calls, choice.message.tool_calls, `${family}: streamed and whole differ`);
  return whole;
}

async function chatNamedAndRoundTrip(openai, family, first) {
  const named = await openai.chat.completions.create({
    model: 'm', messages: [{ role: 'user', content: 'What time is it in Berlin?' }], tools: chatTools,
    tool_choice: { type: 'function', function: { name: 'get_time' } }, seed: 12, temperature: 1.0,
    max_tokens: 200, ...noThinking,
  });
  const calls = named.choices[0].message.tool_calls;
  assert.equal(calls?.length, 1, `${family}: ${JSON.stringify(named.choices[0].message)}`);
  assert.equal(calls[0].function.name, 'get_time');
  assertValid('get_time', JSON.parse(calls[0].function.arguments), `${family} named`);

  const assistant = first.choices[0].message;
  const results = assistant.tool_calls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: '{"temperature": 21}' }));
  const second = await openai.chat.completions.create({
    model: 'm', messages: [{ role: 'user', content: question }, assistant, ...results], tools: chatTools,
    seed: 13, temperature: 1.0, max_tokens: 8, ...noThinking,
  });
  assert.ok(second.usage.prompt_tokens > first.usage.prompt_tokens, family);
}

async function responsesStreamedAndRoundTrip(openai, family) {
  const request = {
    model: 'm', input: question, tools: responsesTools, tool_choice: 'required', parallel_tool_calls: false,
    seed: 14, temperature: 1.0, max_output_tokens: 400, reasoning: { effort: 'none' }, store: false,
  };
  let completed = null;
  for await (const event of await openai.responses.create({ ...request, stream: true })) {
    if (event.type === 'response.completed') completed = event.response;
  }
  assert.ok(completed, family);
  const call = completed.output.find((item) => item.type === 'function_call');
  assert.ok(call, `${family}: ${JSON.stringify(completed.output)}`);
  assertValid(call.name, JSON.parse(call.arguments), `${family} responses`);

  const second = await openai.responses.create({
    model: 'm', tools: responsesTools, seed: 15, temperature: 1.0, max_output_tokens: 8,
    reasoning: { effort: 'none' }, store: false,
    input: [
      { role: 'user', content: question },
      { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
      { type: 'function_call_output', call_id: call.call_id, output: '18 C, sunny' },
    ],
  });
  assert.equal(second.status === 'completed' || second.status === 'incomplete', true, family);
  assert.ok(second.usage.input_tokens > completed.usage.input_tokens, family);
}

async function messagesStreamedAndRoundTrip(anthropic, family) {
  const messages = [{ role: 'user', content: question }];
  const first = await anthropic.messages.stream({
    model: 'm', max_tokens: 400, temperature: 1, seed: 16, tools: messagesTools,
    tool_choice: { type: 'any', disable_parallel_tool_use: true }, messages, thinking: { type: 'disabled' },
  }).finalMessage();
  assert.equal(first.stop_reason, 'tool_use', `${family}: ${JSON.stringify(first.content)}`);
  const call = first.content.find((block) => block.type === 'tool_use');
  assertValid(call.name, call.input, `${family} messages`);

  const second = await anthropic.messages.create({
    model: 'm', max_tokens: 8, temperature: 1, seed: 17, tools: messagesTools, thinking: { type: 'disabled' },
    messages: [
      ...messages,
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '18 C, sunny' }] },
    ],
  });
  assert.equal(second.type, 'message', family);
  // Anthropic's input_tokens leaves out those read from the cache.
  const prompt = (usage) => usage.input_tokens + (usage.cache_read_input_tokens ?? 0);
  assert.ok(prompt(second.usage) > prompt(first.usage), family);
}

for (const [family, template] of families) {
  test(`${family} (${template}): required and named calls in every API, whole and streamed, and round trips`, { skip }, async () => {
    await withFamilyServer(family, template, async ({ openai, anthropic }) => {
      const first = await chatRequiredWholeAndStreamed(openai, family);
      await chatNamedAndRoundTrip(openai, family, first);
      await responsesStreamedAndRoundTrip(openai, family);
      await messagesStreamedAndRoundTrip(anthropic, family);
    });
  });
}

test('a chosen template that is missing, unknown or broken stops serve before it loads', { skip }, () => {
  const broken = path.join(dir, 'broken.jinja');
  writeFileSync(broken, '{% for m in messages %}{{ m.content }');
  const cases = [
    [['--chat-template-file', path.join(dir, 'absent.jinja')], /cannot be read/],
    [['--chat-template', 'vicuna'], /not a template .* nor a built-in name \(chatml\)/],
    [['--chat-template-file', broken], /--chat-template-file: the template does not parse/],
    [['--chat-template', 'chatml', '--chat-template-file', broken], /not both/],
  ];
  for (const [flags, message] of cases) {
    const run = spawnSync(ingotBinary, ['serve', '--model', model, '--port', '0', ...flags], { encoding: 'utf8' });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, message);
  }
});

test('--chat-template chatml replaces the template the file carries', { skip }, async () => {
  const server = await startServer(model, ['--chat-template', 'chatml', '--alias', 'm']);
  try {
    const openai = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
    // ChatML shows no tools: they go in a system message, read back as generic JSON.
    assert.equal((await openai.models.list()).data[0].tool_call_family, 'generic');
    const reply = await openai.chat.completions.create({
      model: 'm', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 2, temperature: 0,
    });
    // <|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n: the ChatML prompt.
    assert.equal(reply.usage.prompt_tokens, 9);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
