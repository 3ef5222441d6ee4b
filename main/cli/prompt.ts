import { createInterface } from 'node:readline';

/**
 * Reads secrets: typed without echo on a terminal, or one per line from a pipe (automation).
 * The answer lives only in memory on its way to the keychain.
 */
export async function promptSecrets(questions: readonly string[]): Promise<string[]> {
  const input = process.stdin;
  if (!input.isTTY) {
    const lines = createInterface({ input, terminal: false })[Symbol.asyncIterator]();
    const answers: string[] = [];
    for (const question of questions) {
      const next = await lines.next();
      if (next.done) throw new Error(`No value was given for ${question}.`);
      answers.push(String(next.value).trim());
    }
    return answers;
  }
  const answers: string[] = [];
  for (const question of questions) answers.push(await askHidden(question));
  return answers;
}

function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    // Echo nothing of what is typed after the question.
    (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = (text: string) => {
      if (text.startsWith(question)) process.stderr.write(text);
    };
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer.trim());
    });
  });
}
