import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Receipt, ReceiptVerdict } from '../../protocol/receipt';
import { localWithZone } from '../../protocol/time-format';
import { isOurReceipt, readProofBytes } from '../pdf-attachment';
import { DEMO_VERDICT_NOTICE, VERDICT_HEADLINES, verifyReceipt } from '../verify-receipt';

/**
 * verify.html: the other side's verifier. Reads the document and its receipt or certificate
 * locally (the page's policy forbids every network request), and says in plain words what holds.
 */
const CHUNK = 8 * 1024 * 1024;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const LOOKS: Record<ReceiptVerdict['verdict'], 'verified' | 'failed' | 'warning'> = {
  verified: 'verified',
  content_differs: 'failed',
  receipt_invalid: 'failed',
  untrusted_key: 'warning',
  not_anchored: 'warning',
};

let documentFile: File | undefined;
let proofFile: File | undefined;
let run = 0;

function kitKeys(): string[] {
  try {
    const keys = JSON.parse($('kit-trusted-keys').textContent ?? '[]') as unknown;
    return Array.isArray(keys) ? keys.filter((key): key is string => typeof key === 'string') : [];
  } catch {
    return [];
  }
}

function trustedKeys(): string[] {
  const extra = $<HTMLInputElement>('extra-key').value.trim().toLowerCase().replace(/\s+/g, '');
  return [...kitKeys(), ...(/^[0-9a-f]{64}$/.test(extra) ? [extra] : [])];
}

async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A receipt from a .receipt.json, or the one a certificate carries; undefined if the file is neither. */
async function readProof(file: File): Promise<unknown | undefined> {
  const read = await readProofBytes(
    new Uint8Array(await file.slice(0, 64 * 1024 * 1024).arrayBuffer()),
    inflate,
  );
  return 'json' in read && isOurReceipt(read.json) ? read.json : undefined;
}

/** SHA-256 of a file of any size, read in chunks, with progress. */
async function hashFile(file: File, onProgress: (done: number) => void): Promise<string> {
  const hash = sha256.create();
  for (let offset = 0; offset < file.size; offset += CHUNK) {
    hash.update(new Uint8Array(await file.slice(offset, offset + CHUNK).arrayBuffer()));
    onProgress(Math.min(1, (offset + CHUNK) / file.size));
  }
  return bytesToHex(hash.digest());
}

/** Dropped files are sorted by what they are: a receipt or certificate is the proof, anything else the document. */
async function take(files: File[]): Promise<void> {
  for (const file of files) {
    if ((await readProof(file)) !== undefined && (proofFile === undefined || files.length > 1))
      proofFile = file;
    else documentFile = file;
  }
  await check();
}

function show(
  kind: 'idle' | 'verified' | 'failed' | 'warning',
  headline: string,
  text: string,
  demo = false,
): void {
  const result = $('result');
  result.className = `result ${kind}`;
  result.replaceChildren();
  const strong = document.createElement('strong');
  strong.textContent = headline;
  result.append(strong, document.createTextNode(text));
  if (demo) {
    const mark = document.createElement('p');
    mark.className = 'demo';
    mark.textContent = DEMO_VERDICT_NOTICE;
    result.append(mark);
  }
}

function facts(receipt: Receipt | undefined, documentHash: string): void {
  const list = $('facts');
  list.replaceChildren();
  list.hidden = false;
  const add = (term: string, value: string, mono = false) => {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    if (mono) dd.className = 'mono';
    list.append(dt, dd);
  };
  const when = (iso: string | null) => (iso ? `${localWithZone(Date.parse(iso))} — ${iso}` : 'not anchored');
  add('This document', `${documentFile?.name ?? ''} (${documentFile?.size.toLocaleString() ?? 0} bytes)`);
  add('Its SHA-256', documentHash, true);
  if (!receipt?.file) return;
  add('Certified document', `${receipt.file.name} (${receipt.file.size.toLocaleString()} bytes)`);
  add('Certified SHA-256', receipt.file.sha256, true);
  add('Event', `${receipt.certification.event_type} · ${receipt.certification.asset_type}`);
  if (receipt.certification.matter) add('Matter', receipt.certification.matter);
  add('Certified at', when(receipt.certification.certified_at));
  add('Anchored at', when(receipt.certification.anchored_at));
  add('Certification id', receipt.certification.certification_id ?? '—', true);
  if (receipt.log_key) add('Log key fingerprint', receipt.log_key.fingerprint, true);
}

async function check(): Promise<void> {
  const current = ++run;
  $('chosen').textContent = [
    documentFile ? `Document: ${documentFile.name}` : 'No document yet',
    proofFile ? `Proof: ${proofFile.name}` : 'no receipt or certificate yet',
  ].join(' · ');
  if (!documentFile || !proofFile) {
    show(
      'idle',
      '',
      documentFile ? 'Now give its receipt or certificate.' : 'Now give the document that was certified.',
    );
    return;
  }
  const receipt = await readProof(proofFile);
  if (receipt === undefined) {
    show(
      'failed',
      'No receipt found',
      `${proofFile.name} is neither an Evidence Desk receipt nor a certificate that carries one.`,
    );
    return;
  }
  const progress = $<HTMLProgressElement>('progress');
  progress.hidden = false;
  show('idle', 'Checking…', `Reading ${documentFile.name} on this computer.`);
  const documentHash = await hashFile(documentFile, (done) => {
    if (current === run) progress.value = done;
  });
  progress.hidden = true;
  if (current !== run) return;
  const verdict = verifyReceipt(documentHash, receipt, trustedKeys());
  show(
    LOOKS[verdict.verdict],
    VERDICT_HEADLINES[verdict.verdict],
    verdict.message,
    (receipt as Receipt).demo === true,
  );
  facts(receipt as Receipt, documentHash);
}

function start(): void {
  const keys = kitKeys();
  $('trusted-keys').textContent = keys.length
    ? `This kit trusts the log key with fingerprint ${keys.join(', ')}.`
    : 'This page trusts no log key yet: add the fingerprint the service publishes below.';
  $<HTMLInputElement>('document').addEventListener('change', (event) => {
    documentFile = (event.target as HTMLInputElement).files?.[0];
    void check();
  });
  $<HTMLInputElement>('proof').addEventListener('change', (event) => {
    proofFile = (event.target as HTMLInputElement).files?.[0];
    void check();
  });
  $<HTMLInputElement>('extra-key').addEventListener('input', () => void check());
  const drop = $('drop');
  // Dropping anywhere on the page counts; the browser must not open the file instead.
  window.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('over');
  });
  window.addEventListener('dragleave', () => drop.classList.remove('over'));
  window.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    void take([...(event.dataTransfer?.files ?? [])]);
  });
}

start();
