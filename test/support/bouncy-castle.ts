import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

// Bouncy Castle's RFC 4998 implementation (org.bouncycastle.tsp.ers, Debian's libbcpkix-java 1.72)
// through test/support/ers/Validate.java, which adds the checks BC 1.72 leaves out (every token's
// signature, its path to the root given): the independent verifier our evidence records are held to.
// No skip: on a machine without the JDK or the jars, compiling fails, and so does the test.
const run = promisify(execFile);
const JARS = ['bcprov', 'bcutil', 'bcpkix'].map((jar) => `/usr/share/java/${jar}.jar`);
const BC = JARS.join(':');
const SOURCE = join('test', 'support', 'ers', 'Validate.java');
// A JVM that runs one validation and ends: the quick compiler only, and one collector thread (the
// optimising compiler's threads cost more processor than the validation itself).
const SHORT_RUN = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

export interface BouncyCastle {
  /** Its verdict on a record for a document: exit 0 valid, 1 invalid (and what it said). */
  validate(
    record: Uint8Array,
    document: Uint8Array,
    rootFile: string,
    options?: { revocation?: boolean },
  ): Promise<{ code: number; said: string }>;
}

/**
 * The oracle compiled once (javac: about 3 s of processor; kept in test-results/ between runs), and
 * again only when its source, the jars or the JDK change. Files running side by side may both
 * compile it: the first one's stays.
 */
async function compiledOracle(): Promise<string> {
  const key = createHash('sha256').update(readFileSync(SOURCE));
  for (const jar of JARS) key.update(`${jar} ${statSync(jar).size} ${statSync(jar).mtimeMs}`);
  // Classes compiled by a newer JDK do not load in an older one.
  key.update(javacOnPath());
  const dir = join('test-results', 'ers-oracle', key.digest('hex').slice(0, 16));
  if (existsSync(dir)) return dir;
  mkdirSync(join('test-results', 'ers-oracle'), { recursive: true });
  const building = mkdtempSync(`${dir}-`);
  try {
    await run('javac', ['-cp', BC, '-d', building, SOURCE]);
    renameSync(building, dir);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    // Another file's compiled oracle got there first; anything else is a failure.
    if (!existsSync(dir)) throw error;
  }
  return dir;
}

/** Which JDK's javac the oracle is compiled with: the one on PATH, through its links. */
function javacOnPath(): string {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    const javac = join(folder, 'javac');
    if (existsSync(javac)) return realpathSync(javac);
  }
  return 'javac';
}

/** The oracle, working in `dir` (the record and document it is given are written there). */
export async function bouncyCastle(dir: string): Promise<BouncyCastle> {
  const classes = await compiledOracle();
  return {
    async validate(record, document, rootFile, options = {}) {
      writeFileSync(join(dir, 'record.ers'), record);
      writeFileSync(join(dir, 'document.bin'), document);
      const args = [
        ...SHORT_RUN,
        '-cp',
        `${BC}:${classes}`,
        'Validate',
        join(dir, 'record.ers'),
        join(dir, 'document.bin'),
      ];
      return run('java', [...args, rootFile, ...(options.revocation ? ['--revocation'] : [])])
        .then(({ stdout, stderr }) => ({ code: 0, said: stdout + stderr }))
        .catch((error: { code: number; stdout: string; stderr: string }) => ({
          code: error.code,
          said: error.stdout + error.stderr,
        }));
    },
  };
}
