// Peer: the Vercel AI SDK (`ai`) on its OpenAI provider's Chat Completions model
// (`@ai-sdk/openai`, `openai.chat(MODEL)`), a tool loop with `stopWhen: stepCountIs(N)`.
//
// The provider's default model (`openai(MODEL)`) speaks the Responses API; `.chat` is the one
// for any OpenAI-compatible endpoint. Its base URL includes /v1, as OPENAI_BASE_URL does.
// Mode: not streamed by default (`generateText`); `streamText` when the probe asks for streams.

import { MAX_TOKENS, MAX_TURNS, OPENAI_MODEL, READ_FILE, load, readFile, run, streamed } from './program.mjs';

const { generateText, streamText, stepCountIs, tool } = await load('ai');
const { createOpenAI } = await load('@ai-sdk/openai');
const { z } = await load('zod');

async function agent(prompt) {
  const openai = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY });
  const options = {
    model: openai.chat(OPENAI_MODEL),
    maxOutputTokens: MAX_TOKENS,
    tools: {
      [READ_FILE.name]: tool({
        description: READ_FILE.description,
        inputSchema: z.object({ path: z.string().describe(READ_FILE.schema.properties.path.description) }),
        execute: async ({ path }) => readFile(path),
      }),
    },
    stopWhen: stepCountIs(MAX_TURNS),
    prompt,
  };
  if (!streamed(false)) return (await generateText(options)).text;
  let failure;
  // streamText reports a failed call to onError and ends the stream; the error is the run's end.
  const result = streamText({ ...options, onError: ({ error }) => { failure = error; } });
  const text = await result.text;
  if (failure) throw failure;
  return text;
}

await run(agent);
