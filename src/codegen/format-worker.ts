// A worker thread of the format pool: imports the target's formatter module once, then
// formats each batch of files it is sent, answering with the new contents (null where a
// file is left as it is) or with the first error's message and stack.

import { parentPort, workerData } from "node:worker_threads";

import type { FormatBatch, FormatReply } from "./format-pool.js";

const { formatFile } = (await import(workerData.module as string)) as { formatFile(path: string, content: string): Promise<string> };

parentPort!.on("message", async (batch: FormatBatch) => {
  let reply: FormatReply;
  try {
    const contents = await Promise.all(batch.files.map(async ([path, content]) => {
      const formatted = await formatFile(path, content);
      return formatted === content ? null : formatted;
    }));
    reply = { contents };
  } catch (error) {
    reply = { error: { message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined } };
  }
  parentPort!.postMessage(reply);
});
