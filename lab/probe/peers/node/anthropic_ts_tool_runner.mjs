// Peer: the official TypeScript SDK's tool runner (`client.beta.messages.toolRunner`), default
// settings (message threads on, as in the Python SDK's runner).
//
// Mode: not streamed by default; `stream: true` when the probe asks for streams.
// Asked (program.mjs): thinking with a budget (`thinking`), a web search among its tools, a
// read_image tool whose result is an image block.

import {
  MAX_TOKENS, MAX_TURNS, MODEL, READ_FILE, READ_IMAGE, THINKING, THINKING_MAX_TOKENS, WEB_SEARCH,
  imageBlock, imageTool, load, readFile, run, serverTool, streamed, thinking,
} from './program.mjs';

const { default: Anthropic } = await load('@anthropic-ai/sdk');
const { betaZodTool } = await load('@anthropic-ai/sdk/helpers/beta/zod');
const { z } = await load('zod');

async function agent(prompt) {
  const client = new Anthropic(); // ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY from the environment
  const runner = client.beta.messages.toolRunner({
    model: MODEL,
    max_tokens: MAX_TOKENS,
    max_iterations: MAX_TURNS,
    tools: [
      // The zod helper validates each call's input (the JSON-schema helper, betaTool, does not).
      betaZodTool({
        name: READ_FILE.name,
        description: READ_FILE.description,
        inputSchema: z.object({ path: z.string() }),
        run: ({ path }) => readFile(path),
      }),
      ...(serverTool() ? [WEB_SEARCH] : []),
      ...(imageTool() ? [betaZodTool({
        name: READ_IMAGE.name,
        description: READ_IMAGE.description,
        inputSchema: z.object({ path: z.string() }),
        run: ({ path }) => [imageBlock(path)],
      })] : []),
    ],
    messages: [{ role: 'user', content: prompt }],
    stream: streamed(false),
    ...(thinking() ? { thinking: THINKING, max_tokens: THINKING_MAX_TOKENS } : {}),
  });
  const final = await runner.runUntilDone();
  return final.content.filter((block) => block.type === 'text').map((block) => block.text).join('');
}

await run(agent);
