import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

// Bouncy Castle's RFC 4998 implementation (org.bouncycastle.tsp.ers, Debian's libbcpkix-java 1.72)
// through test/support/ers/Validate.java, which adds the checks BC 1.72 leaves out (every token's
// signature, its path to the root given): the independent verifier our evidence records are held to.
// No skip: on a machine without the JDK or the jars, compiling fails, and so does the test.
const run = promisify(execFile);
const BC = ['bcprov', 'bcutil', 'bcpkix'].map((jar) => `/usr/share/java/${jar}.jar`).join(':');

export interface BouncyCastle {
  /** Its verdict on a record for a document: exit 0 valid, 1 invalid (and what it said). */
  validate(
    record: Uint8Array,
    document: Uint8Array,
    rootFile: string,
    options?: { revocation?: boolean },
  ): Promise<{ code: number; said: string }>;
}

/** Compiles the oracle into `dir` (javac: about a second), against the Bouncy Castle this machine has. */
export async function bouncyCastle(dir: string): Promise<BouncyCastle> {
  await run('javac', ['-cp', BC, '-d', dir, join('test', 'support', 'ers', 'Validate.java')]);
  return {
    async validate(record, document, rootFile, options = {}) {
      writeFileSync(join(dir, 'record.ers'), record);
      writeFileSync(join(dir, 'document.bin'), document);
      const args = ['-cp', `${BC}:${dir}`, 'Validate', join(dir, 'record.ers'), join(dir, 'document.bin')];
      return run('java', [...args, rootFile, ...(options.revocation ? ['--revocation'] : [])])
        .then(({ stdout, stderr }) => ({ code: 0, said: stdout + stderr }))
        .catch((error: { code: number; stdout: string; stderr: string }) => ({
          code: error.code,
          said: error.stdout + error.stderr,
        }));
    },
  };
}
