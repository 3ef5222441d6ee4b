import { createHash } from 'node:crypto';
import { DeskError } from '../errors';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';
import type { DocumentTimestamp, DocumentTimestamper } from '../tools/pdf/seal';
import { SEALED_WITH_ITS_KIT, UNSEALED_BY_CHOICE } from '../tools/pdf/seal';
import type { SealedFile } from '../../verifier/kit-manifest';
import {
  KIT_MANIFEST_FILE,
  KIT_SEAL_CHAIN_FILE,
  KIT_SEAL_ROOT_FILE,
  KIT_SEAL_SIGNER_FILE,
  KIT_SEAL_WAITING_FILE,
  KIT_TOKEN_FILE,
  asicManifest,
  kitSealStatusFile,
} from '../../verifier/kit-manifest';
import { base64ToBytes } from '../../verifier/bytes';
import type { KitSink } from './kit-sink';
import type { KitTarget } from './kit';
import { pem } from './pem';

/** A kit's PDFs are sealed by the kit's one timestamp when it has an authority, else not at all (saying why). */
export const sealing = (target: KitTarget) =>
  target.timestamper ? SEALED_WITH_ITS_KIT : target.seal === false ? UNSEALED_BY_CHOICE : undefined;

/** A kit saved complete while its authority could not seal it: its seal waits (store/kit-seals.ts). */
export interface SealWaiting {
  /** Why, in English, as the kit's note says it. */
  problem: string;
  reason: Said | null;
  /** The manifest's SHA-256 (hex): what the seal, when it comes, must cover. */
  manifestSha256: string;
}

/**
 * The kit's seal, once every other file is in: the manifest of their SHA-256s, one RFC 3161 token
 * over it, and the authority's certificates to check that token with. A kit whose pages say it is
 * sealed is never saved without its seal: a refusal fails the export, saying why, unless the seal
 * may wait. Then the kit is saved whole with a note in words beside its manifest, and answers what
 * its seal waits for; Evidence Desk adds the seal when the authority answers.
 */
export async function sealKit(
  sink: KitSink,
  files: readonly SealedFile[],
  timestamper: DocumentTimestamper | undefined,
  { mayWait = false, now = new Date() }: { mayWait?: boolean; now?: Date } = {},
): Promise<SealWaiting | null> {
  if (!timestamper) return null;
  const manifest = Buffer.from(asicManifest(files));
  await sink.put(KIT_MANIFEST_FILE, manifest);
  const answer = await timestamper(manifest);
  if ('problem' in answer) {
    if (!mayWait || answer.final)
      throw new DeskError('not_sealed', said('exports.kitNotSealed', { why: answer.problem }));
    await sink.put(KIT_SEAL_WAITING_FILE, sealWaitingNote(answer.problem, now));
    return {
      problem: answer.problem,
      reason: answer.reason ?? null,
      manifestSha256: createHash('sha256').update(manifest).digest('hex'),
    };
  }
  await putSealFiles(sink.put, answer);
  return null;
}

/** The token over the manifest, and the authority's certificates and validation data beside it. */
export async function putSealFiles(
  put: (path: string, data: Buffer | string) => Promise<void>,
  answer: DocumentTimestamp,
): Promise<void> {
  await put(KIT_TOKEN_FILE, Buffer.from(answer.token));
  const root = answer.chain?.at(-1);
  if (!answer.chain || !root) return;
  // Above the signer (whose certificate the token carries): what -untrusted is given.
  const above = answer.chain.length > 1 ? answer.chain.slice(1) : answer.chain;
  await put(KIT_SEAL_CHAIN_FILE, above.map((der) => pem(der, 'CERTIFICATE')).join(''));
  await put(KIT_SEAL_ROOT_FILE, pem(root, 'CERTIFICATE'));
  await put(KIT_SEAL_SIGNER_FILE, pem(answer.chain[0] as string, 'CERTIFICATE'));
  // The seal's validation data, so that it checks after the authority's certificate expires.
  for (const kind of ['ocsp', 'crl'] as const)
    for (const [index, der] of (answer.validation?.[kind] ?? []).entries())
      await put(kitSealStatusFile(kind, index + 1), Buffer.from(base64ToBytes(der)));
}

/** What the kit says while its seal waits: read by the other side, so in English, and plain. */
const sealWaitingNote = (problem: string, now: Date) =>
  `THIS KIT IS NOT SEALED YET

Evidence Desk saved this kit complete on ${now.toISOString()}, but the timestamping authority
could not seal it then: ${problem}

Evidence Desk asks the authority again and adds the seal to this kit when it answers: the token
META-INF/timestamp.tst over META-INF/ASiCManifest.xml, and this note goes. Until then no timestamp
covers the kit as a whole. Each receipt still proves its document on its own.
`;
