import { PdfDocument } from '../../../verifier/pdf/pdf-document';
import type { PdfDictionary, PdfValue } from '../../../verifier/pdf/pdf-syntax';
import { PdfName, PdfRef, isDictionary } from '../../../verifier/pdf/pdf-syntax';
import { base64ToBytes } from '../../../verifier/bytes';
import { SIGNATURE_PLACEHOLDER } from './seal-placeholder';

/**
 * PAdES B-LT, ready for B-LTA (ETSI EN 319 142-1 §5.4, §5.5): an incremental update to a sealed PDF
 * that adds a Document Security Store (/DSS: the authority's certificates, OCSP responses, CRLs)
 * and an empty second document timestamp, which sealPdf then fills over the whole file, DSS
 * included. Nothing before the update changes: the first seal still covers what it covered.
 * Written by hand for the reason seal.ts gives; read back with the verifier's own PDF reader.
 */
export interface ValidationMaterial {
  /** DER base64, as kept with tokens. */
  certificates: readonly string[];
  ocsp: readonly string[];
  crl: readonly string[];
}

export function withValidationUpdate(sealed: Buffer, material: ValidationMaterial): Buffer {
  const pdf = new PdfDocument(sealed);
  const rootRef = pdf.trailer.get('Root');
  const size = pdf.trailer.get('Size');
  if (!(rootRef instanceof PdfRef) || typeof size !== 'number') throw new Error('The PDF has no catalog.');
  const catalog = pdf.resolve(rootRef);
  const formRef = isDictionary(catalog) ? catalog.get('AcroForm') : undefined;
  const form = pdf.resolve(formRef);
  const pages = isDictionary(catalog) ? pdf.resolve(catalog.get('Pages')) : undefined;
  const pageRef = isDictionary(pages)
    ? (pdf.resolve(pages.get('Kids')) as PdfValue[] | undefined)?.[0]
    : undefined;
  const page = pdf.resolve(pageRef);
  if (!isDictionary(catalog) || !(formRef instanceof PdfRef) || !isDictionary(form))
    throw new Error('The PDF has no form for its seal.');
  if (!(pageRef instanceof PdfRef) || !isDictionary(page)) throw new Error('The PDF has no first page.');

  let next = size;
  const objects: { number: number; body: Buffer }[] = [];
  const add = (body: Buffer, number = next++) => {
    objects.push({ number, body });
    return new PdfRef(number, 0);
  };
  const stream = (base64: string) => {
    const data = Buffer.from(base64ToBytes(base64));
    return add(
      Buffer.concat([
        Buffer.from(`<< /Length ${data.length} >>\nstream\n`),
        data,
        Buffer.from('\nendstream'),
      ]),
    );
  };
  const dss = new Map<string, PdfValue>([['Type', new PdfName('DSS')]]);
  const certs = material.certificates.map(stream);
  const ocsps = material.ocsp.map(stream);
  const crls = material.crl.map(stream);
  if (certs.length) dss.set('Certs', certs);
  if (ocsps.length) dss.set('OCSPs', ocsps);
  if (crls.length) dss.set('CRLs', crls);
  const dssRef = add(Buffer.from(text(dss)));

  // The archive timestamp's field: invisible, on the first page, listed by the form.
  const signatureRef = add(Buffer.from(SIGNATURE_PLACEHOLDER, 'latin1'));
  const widget = new Map<string, PdfValue>([
    ['Type', new PdfName('Annot')],
    ['Subtype', new PdfName('Widget')],
    ['FT', new PdfName('Sig')],
    ['Rect', [0, 0, 0, 0]],
    ['F', 132],
    ['T', new TextEncoder().encode('Archive timestamp')],
    ['V', signatureRef],
    ['P', pageRef],
  ]);
  const widgetRef = add(Buffer.from(text(widget)));
  const annotations = pdf.resolve(page.get('Annots'));
  const fields = pdf.resolve(form.get('Fields'));
  add(
    Buffer.from(
      text(new Map([...page, ['Annots', [...(Array.isArray(annotations) ? annotations : []), widgetRef]]])),
    ),
    pageRef.number,
  );
  add(
    Buffer.from(text(new Map([...form, ['Fields', [...(Array.isArray(fields) ? fields : []), widgetRef]]]))),
    formRef.number,
  );
  add(Buffer.from(text(new Map([...catalog, ['DSS', dssRef]]))), rootRef.number);

  // The update: each object, then a cross-reference section of one entry per object, pointing back.
  const parts: Buffer[] = [sealed, Buffer.from('\n')];
  let offset = sealed.length + 1;
  const xref: string[] = ['xref'];
  for (const object of objects) {
    const chunk = Buffer.concat([
      Buffer.from(`${object.number} 0 obj\n`),
      object.body,
      Buffer.from('\nendobj\n'),
    ]);
    xref.push(`${object.number} 1`, `${String(offset).padStart(10, '0')} 00000 n `);
    parts.push(chunk);
    offset += chunk.length;
  }
  const trailer = new Map<string, PdfValue>([...pdf.trailer, ['Size', next], ['Prev', previousXref(sealed)]]);
  parts.push(Buffer.from(`${xref.join('\n')}\ntrailer\n${text(trailer)}\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** Where the file's last cross-reference section starts: the update's /Prev. */
function previousXref(pdf: Buffer): number {
  const at = pdf.lastIndexOf('startxref');
  return Number(/\d+/.exec(pdf.subarray(at + 9, at + 40).toString('latin1'))?.[0]);
}

/** A value in PDF syntax (ISO 32000-1 §7.3): strings as hex, names with anything unusual escaped. */
function text(value: PdfValue): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number')
    return Number.isInteger(value) ? String(value) : value.toFixed(6).replace(/\.?0+$/, '');
  if (value instanceof PdfName)
    return `/${value.name.replace(/[^!-~]|[#()<>[\]{}/%]/g, (c) => `#${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}`;
  if (value instanceof PdfRef) return `${value.number} ${value.generation} R`;
  if (value instanceof Uint8Array) return `<${Buffer.from(value).toString('hex')}>`;
  if (Array.isArray(value)) return `[${value.map(text).join(' ')}]`;
  return `<< ${[...(value as PdfDictionary)].map(([key, entry]) => `${text(new PdfName(key))} ${text(entry)}`).join(' ')} >>`;
}
