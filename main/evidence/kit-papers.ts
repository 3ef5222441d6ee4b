import type { ProfileKind } from '../../protocol/profiles';
import { pem } from './pem';
import { kitSays } from './kit-verifier-page';
import { sealing } from './kit-seal-writer';
import { kitReadme } from './kit-readme';
import type { RegisterEntry } from './pdf/register';
import { registerPdf } from './pdf/register';
import type { KitSink } from './kit-sink';
import type { KitTarget } from './kit';

/** What a kit has seen of its receipts as it wrote them: what its papers say. */
export interface SeenInKit {
  count: number;
  demoCount: number;
  notAnchored: number;
  /** Fingerprint → base64 SPKI DER of every log key the receipts carry. */
  keys: Map<string, string>;
  /** Fingerprint → base64 DER of the root certificate each receipt's timestamp chains to. */
  tsaRoots: Map<string, string>;
  environments: Set<ProfileKind>;
  /** Evidence records put in META-INF/ so far (they are numbered). */
  records: number;
}

/** What the other side reads besides the receipts: the register, the verifier, the keys, the README. */
export async function writePapers(
  sink: KitSink,
  selection: string,
  entries: readonly RegisterEntry[],
  seen: SeenInKit,
  verifier: string,
  target: KitTarget & { now: Date },
): Promise<void> {
  await sink.put(
    'register.pdf',
    await registerPdf(() => entries, {
      selection,
      environments: [...seen.environments],
      generatedAt: target.now,
      timeZone: target.timeZone,
      timestamper: sealing(target),
    }),
  );
  const keyFiles = pemFiles(seen.keys, 'log-key', 'PUBLIC KEY');
  const rootFiles = pemFiles(seen.tsaRoots, 'tsa-root', 'CERTIFICATE');
  for (const { file, text } of [...keyFiles, ...rootFiles]) await sink.put(file, text);
  await sink.put(
    'verify.html',
    kitSays(verifier, {
      logKeys: [...seen.keys.keys()],
      tsaRoots: [...seen.tsaRoots.keys()],
      demo: seen.demoCount > 0,
    }),
  );
  await sink.put(
    'README.txt',
    kitReadme({
      ...seen,
      keys: keyFiles,
      tsaRoots: rootFiles,
      selection,
      generatedAt: target.now,
      sealed: target.timestamper
        ? true
        : {
            why:
              target.seal === false
                ? 'it was saved unsealed, by choice.'
                : 'no timestamping authority was set when it was made.',
          },
    }),
  );
}

/** "log-key.pem" when there is one; "log-key-1-ab12cd34.pem", … (numbered, by fingerprint) when more. */
function pemFiles(
  byFingerprint: ReadonlyMap<string, string>,
  name: string,
  label: string,
): { file: string; fingerprint: string; text: string }[] {
  return [...byFingerprint].map(([fingerprint, der], i) => ({
    file: byFingerprint.size === 1 ? `${name}.pem` : `${name}-${i + 1}-${fingerprint.slice(0, 8)}.pem`,
    fingerprint,
    text: pem(der, label),
  }));
}
