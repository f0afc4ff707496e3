// The tool schemas of real MCP servers (tests/fixtures/mcp-tools), as an
// agent hands them to the model: every one is accepted, through `tools`
// and through a non-strict `response_format`; `strict: true` still refuses
// what cannot be enforced, naming the keyword; and every call generated
// (random weights, several seeds, tool_choice "required") validates with
// ajv against the *original* schema, except where an assertion the server
// named in `x-ingot-relaxed` is the reason. INGOT_MCP_SEEDS sets the calls
// per tool (the default keeps CI short).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { serverForFile, haveShared } from './harness.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';
const seedsPerTool = Number(process.env.INGOT_MCP_SEEDS ?? 1);
const maxTokens = 300;
const model = 'tiny-qwen3-f16';
const session = serverForFile('tiny-qwen3-f16.gguf', ['--parallel', '4', '--ctx-size', '4096']);
const corpusDir = path.resolve(import.meta.dirname, '../fixtures/mcp-tools');

function loadTools() {
  const tools = [];
  for (const file of readdirSync(corpusDir).filter((f) => f.endsWith('.json')).sort()) {
    const { server, tools: list } = JSON.parse(readFileSync(path.join(corpusDir, file), 'utf8'));
    for (const tool of list) tools.push({ server, name: tool.name, schema: tool.inputSchema });
  }
  return tools;
}

function validatorFor(schema) {
  const draft2020 = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
  const ajv = draft2020 ? new Ajv2020({ strict: false }) : new Ajv({ strict: false });
  addFormats(ajv, { mode: 'full' });
  return ajv.compile(schema);
}

// "tools[0].parameters#/properties/url: format uri" -> {path: "#/properties/url", keyword: "format"}
function parseRelaxed(header) {
  if (!header) return [];
  return header.split(', ').map((entry) => {
    const [where, what] = entry.split(': ');
    return { path: where.slice(where.indexOf('#')), keyword: what.split(' ')[0] };
  });
}

// An ajv error is explained by a dropped assertion when the keyword that
// failed is the one dropped, at the schema it was dropped from.
function explainedBy(error, relaxed) {
  const at = error.schemaPath.slice(0, error.schemaPath.lastIndexOf('/'));
  return relaxed.some((r) => r.keyword === error.keyword && (r.path === at || at.endsWith(r.path.slice(1))));
}

function post(body) {
  return fetch(`${session.server.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Use the tool.' }], ...body }),
  });
}

const asTool = (tool, extra = {}) => ({ type: 'function', function: { name: tool.name, parameters: tool.schema, ...extra } });

test('every MCP tool schema is accepted through tools and response_format', { skip, timeout: 600_000 }, async () => {
  const tools = loadTools();
  assert.ok(new Set(tools.map((t) => t.server)).size >= 20);
  let relaxedCount = 0;
  for (const tool of tools) {
    const label = `${tool.server}/${tool.name}`;
    const offered = await post({ tools: [asTool(tool)], max_tokens: 1 });
    const offeredBody = await offered.text();
    assert.equal(offered.status, 200, `${label}: ${offeredBody}`);
    const relaxed = offered.headers.get('x-ingot-relaxed');
    const formatted = await post({
      max_tokens: 1,
      response_format: { type: 'json_schema', json_schema: { name: 'args', schema: tool.schema } },
    });
    const formattedBody = await formatted.text();
    assert.equal(formatted.status, 200, `${label}: ${formattedBody}`);
    assert.equal(formatted.headers.get('x-ingot-relaxed') !== null, relaxed !== null, label);
    if (!relaxed) continue;
    relaxedCount += 1;
    // Asked to be strict, the same schema is refused, naming what it cannot enforce.
    const keywords = parseRelaxed(relaxed).map((r) => r.keyword);
    for (const strictBody of [
      { tools: [asTool(tool, { strict: true })], tool_choice: 'required' },
      { response_format: { type: 'json_schema', json_schema: { name: 'args', strict: true, schema: tool.schema } } },
    ]) {
      const refused = await post({ max_tokens: 1, ...strictBody });
      assert.equal(refused.status, 400, label);
      const { error } = await refused.json();
      assert.equal(error.code, 'unsupported_schema', label);
      assert.ok(keywords.some((k) => error.message.includes(`'${k}'`) || error.message.includes(k)), `${label}: ${error.message} names none of ${keywords}`);
    }
  }
  console.log(`mcp tools: ${tools.length} schemas accepted, ${relaxedCount} of them relaxed`);
  assert.ok(relaxedCount > 0);
});

const skipGeneration = skip || (seedsPerTool === 0 ? 'INGOT_MCP_SEEDS=0: no generations' : false);

test('calls generated for every MCP tool validate against the original schema', { skip: skipGeneration, timeout: 1_200_000 }, async () => {
  const tools = loadTools();
  let calls = 0;
  let cut = 0;
  const explained = [];
  for (const tool of tools) {
    const validate = validatorFor(tool.schema);
    const label = `${tool.server}/${tool.name}`;
    const seeds = Array.from({ length: seedsPerTool }, (_, i) => i + 1);
    const replies = await Promise.all(seeds.map(async (seed) => {
      const response = await post({ tools: [asTool(tool)], tool_choice: 'required', temperature: 1, top_p: 1, seed, max_tokens: maxTokens });
      assert.equal(response.status, 200, label);
      return { relaxed: parseRelaxed(response.headers.get('x-ingot-relaxed')), body: await response.json() };
    }));
    for (const { relaxed, body } of replies) {
      const choice = body.choices[0];
      if (choice.finish_reason === 'length') { cut += 1; continue; }
      assert.equal(choice.finish_reason, 'tool_calls', `${label}: ${JSON.stringify(choice.message)}`);
      for (const call of choice.message.tool_calls) {
        calls += 1;
        assert.equal(call.function.name, tool.name);
        const args = JSON.parse(call.function.arguments);
        if (validate(args)) continue;
        const unexplained = validate.errors.filter((e) => !explainedBy(e, relaxed));
        assert.deepEqual(unexplained, [], `${label}: ${call.function.arguments}`);
        explained.push(`${label}: ${validate.errors.map((e) => `${e.schemaPath} (${e.keyword})`).join(', ')}`);
      }
    }
  }
  console.log(`mcp calls: ${calls} complete calls (${cut} cut by max_tokens), ${explained.length} invalid only by a dropped assertion`);
  for (const line of explained) console.log(`  dropped assertion: ${line}`);
  assert.ok(calls > tools.length / 2, `only ${calls} calls completed for ${tools.length} tools`);
});
