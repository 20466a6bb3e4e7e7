// Peer: the Vercel AI SDK (`ai`) on its Anthropic provider (`@ai-sdk/anthropic`), a tool loop
// with `stopWhen: stepCountIs(N)`.
//
// Mode: not streamed by default (`generateText`); `streamText` when the probe asks for streams.
// The provider's base URL includes /v1 (its default is https://api.anthropic.com/v1).
// Asked (program.mjs): thinking with a budget (the provider's `thinking` option), the
// provider's web search tool, a read_image tool whose output goes to the model as an image
// (`toModelOutput`).

import {
  MAX_TOKENS, MAX_TURNS, MODEL, READ_FILE, READ_IMAGE, THINKING, THINKING_MAX_TOKENS, WEB_SEARCH,
  imageTool, load, readFile, readImage, run, serverTool, streamed, thinking,
} from './program.mjs';

const { generateText, streamText, stepCountIs, tool } = await load('ai');
const { createAnthropic } = await load('@ai-sdk/anthropic');
const { z } = await load('zod');

async function agent(prompt) {
  const anthropic = createAnthropic({ baseURL: `${process.env.ANTHROPIC_BASE_URL}/v1` });
  const options = {
    model: anthropic(MODEL),
    maxOutputTokens: MAX_TOKENS,
    tools: {
      [READ_FILE.name]: tool({
        description: READ_FILE.description,
        // zod, as the SDK's docs write tools: the SDK validates each call's input against it.
        inputSchema: z.object({ path: z.string().describe(READ_FILE.schema.properties.path.description) }),
        execute: async ({ path }) => readFile(path),
      }),
    },
    stopWhen: stepCountIs(MAX_TURNS),
    prompt,
  };
  if (thinking()) {
    options.maxOutputTokens = THINKING_MAX_TOKENS;
    const budgetTokens = THINKING.budget_tokens;
    options.providerOptions = { anthropic: { thinking: { type: 'enabled', budgetTokens } } };
  }
  if (imageTool()) {
    options.tools[READ_IMAGE.name] = tool({
      description: READ_IMAGE.description,
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => readImage(path),
      toModelOutput: ({ output }) => ({
        type: 'content',
        value: [{ type: 'image-data', data: output.data, mediaType: output.mediaType }],
      }),
    });
  }
  if (serverTool()) {
    options.tools.web_search = anthropic.tools.webSearch_20250305({ maxUses: WEB_SEARCH.max_uses });
  }
  if (!streamed(false)) return (await generateText(options)).text;
  let failure;
  // streamText reports a failed call to onError and ends the stream; the error is the run's end.
  const result = streamText({ ...options, onError: ({ error }) => { failure = error; } });
  const text = await result.text;
  if (failure) throw failure;
  return text;
}

await run(agent);
