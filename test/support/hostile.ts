import { deflateRawSync, deflateSync } from 'node:zlib';
import { crc32 } from 'node:zlib';

/**
 * The other side's inputs, made as an attacker would (issue "What the other side sends cannot
 * hurt us"): zips whose entries overlap or inflate a thousandfold, PDFs whose attachment is
 * superseded by an update or is a flate bomb. Written by hand, byte by byte, because no library
 * writes them wrong on purpose.
 */

export interface RawZipEntry {
  name: string;
  /** The entry's bytes as stored (deflated), and what it says they expand to. */
  deflated: Buffer;
  size: number;
  crc: number;
}

/** A deflated zip entry of `data`. */
export function zipEntry(name: string, data: Buffer): RawZipEntry {
  return { name, deflated: deflateRawSync(data, { level: 1 }), size: data.length, crc: crc32(data) };
}

/**
 * A zip of the entries; with `overlap`, every central record after the first points at the first
 * entry's local header and data (the non-recursive zip bomb: one compressed stream, read n times).
 */
export function zipOf(entries: RawZipEntry[], { overlap = false } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [index, entry] of entries.entries()) {
    const name = Buffer.from(entry.name, 'utf8');
    const at = overlap ? 0 : offset;
    if (!overlap || index === 0) {
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(0x0800, 6);
      local.writeUInt16LE(8, 8);
      local.writeUInt32LE(entry.crc, 14);
      local.writeUInt32LE(entry.deflated.length, 18);
      local.writeUInt32LE(entry.size, 22);
      local.writeUInt16LE(name.length, 26);
      locals.push(local, name, entry.deflated);
      offset += 30 + name.length + entry.deflated.length;
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.deflated.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(at, 42);
    centrals.push(central, overlap && index > 0 ? Buffer.from(entries[0]!.name) : name);
    if (overlap && index > 0) central.writeUInt16LE(Buffer.byteLength(entries[0]!.name), 28);
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * An incremental update of a certificate PDF, as any PDF editor appends one: its catalog now
 * names new attachments (`attachments`, each a stream as given), superseding what was sealed.
 */
export function withAttachmentsUpdated(
  pdf: Buffer,
  attachments: { name: string; stream: Buffer; filter?: 'FlateDecode' }[],
  { dropForm = false } = {},
): Buffer {
  const text = pdf.toString('latin1');
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
  const root = Number(/\/Root (\d+) 0 R/.exec(text.slice(text.lastIndexOf('trailer')))?.[1]);
  const size = Number(/\/Size (\d+)/.exec(text.slice(text.lastIndexOf('trailer')))?.[1]);
  const catalog = new RegExp(`\\n${root} 0 obj\\s*(<<[\\s\\S]*?>>)\\s*endobj`).exec(text)?.[1];
  if (!catalog || !Number.isInteger(startxref)) throw new Error('not a PDF as pdfkit writes it');
  const objects: [number, Buffer][] = [];
  let next = size;
  const pairs: string[] = [];
  for (const { name, stream, filter } of attachments) {
    const file = next++;
    const spec = next++;
    objects.push([
      file,
      Buffer.concat([
        Buffer.from(
          `<< /Type /EmbeddedFile /Length ${stream.length}${filter ? ` /Filter /${filter}` : ''} >>\nstream\n`,
          'latin1',
        ),
        stream,
        Buffer.from('\nendstream', 'latin1'),
      ]),
    ]);
    objects.push([
      spec,
      Buffer.from(`<< /Type /Filespec /F (${name}) /EF << /F ${file} 0 R >> >>`, 'latin1'),
    ]);
    pairs.push(`(${name}) ${spec} 0 R`);
  }
  const names = next++;
  objects.push([names, Buffer.from(`<< /EmbeddedFiles << /Names [${pairs.join(' ')}] >> >>`, 'latin1')]);
  const named = catalog.includes('/Names')
    ? catalog.replace(/\/Names \d+ 0 R/, `/Names ${names} 0 R`)
    : catalog.replace(/>>$/, `/Names ${names} 0 R\n>>`);
  // Without its form, the update no longer lists the seal's field: as if it had never been sealed.
  const newCatalog = dropForm ? named.replace(/\/AcroForm \d+ 0 R/, '') : named;
  objects.push([root, Buffer.from(newCatalog, 'latin1')]);
  const parts: Buffer[] = [pdf, Buffer.from('\n')];
  let at = pdf.length + 1;
  const offsets = new Map<number, number>();
  for (const [number, body] of objects) {
    offsets.set(number, at);
    const chunk = Buffer.concat([Buffer.from(`${number} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    at += chunk.length;
  }
  const xref = [`xref`];
  for (const [number, offset] of [...offsets].sort(([a], [b]) => a - b))
    xref.push(`${number} 1`, `${String(offset).padStart(10, '0')} 00000 n `);
  xref.push(`trailer\n<< /Size ${next} /Root ${root} 0 R /Prev ${startxref} >>\nstartxref\n${at}\n%%EOF\n`);
  parts.push(Buffer.from(xref.join('\n'), 'latin1'));
  return Buffer.concat(parts);
}

/** A flate bomb: `megabytes` of zeros, deflated (zlib, as PDF's FlateDecode). */
export const flateBomb = (megabytes: number): Buffer =>
  deflateSync(Buffer.alloc(megabytes * 1024 * 1024), { level: 1 });
