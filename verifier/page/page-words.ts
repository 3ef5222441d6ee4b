import type { Language } from '../../protocol/locales/languages';
import { NO_RECEIPT_WORDS } from '../pdf-attachment';

/**
 * verify.html's own words, in each language it speaks (it follows the browser's, and offers a
 * switch). Verdicts, facts and set results come from the app's catalogue, read without i18next
 * (protocol/locales/plain.ts). Markup kept to *bold*, `code` and _emphasis_.
 */
const en = {
  title: 'Verify a certified document — Evidence Desk',
  brand: 'Evidence Desk · offline verifier',
  heading: 'Verify a certified document',
  lead: 'Check that a document is exactly the one that was certified, and when. This page works without the internet and without Evidence Desk: your files are read only by this browser, never sent anywhere.',
  kitDemo:
    'DEMO: this kit was made on a sandbox. Its cryptography is real, but its certifications carry no legal weight.',
  language: 'Language',
  dropTitle: '1. Give the document and its proof',
  dropExplain:
    'Drop the *document* and its *receipt* (`.receipt.json`) or *certificate* (`.pdf`) here, or choose them:',
  documentLabel: 'Document',
  proofLabel: 'Receipt or certificate',
  resultTitle: '2. The result',
  waiting: 'Waiting for a document and its receipt or certificate.',
  setTitle: 'Or check a whole production',
  setExplain:
    "Choose the folder of documents you received and the evidence kit's folder (unzipped): every document is compared with the kit's receipts, and each receipt is checked as above.",
  setFolderLabel: 'Folder of documents',
  setKitLabel: 'Evidence kit folder',
  setWaiting: 'Waiting for a folder of documents and the kit.',
  columnDocument: 'Document',
  columnVerdict: 'Verdict',
  columnCertification: 'Certification',
  trustTitle: '3. Whose signatures vouch for it',
  trustExplain:
    'A receipt carries the public key of the log that signed it, so anyone could make a receipt that holds together. The result says _verified_ only when that key is one you trust. Until then it says _certified, but signed by a key you have not trusted_. An independent timestamp (RFC 3161) counts only when its authority’s root certificate is trusted the same way. Names, matters and who certified are shown apart: nobody signed them.',
  kitKeys:
    'This kit’s receipts are signed with these keys. Compare each fingerprint with the one the certification service publishes (from the service itself, never from whoever sent the kit; your IT department can help) before you trust them:',
  trustKit: 'I compared them with the service’s own fingerprints, and they match: trust this kit’s keys',
  extraKey: 'Or trust the log key with this SHA-256 fingerprint',
  extraRoot: 'and the timestamping authority whose root certificate has this SHA-256 fingerprint',
  hexPlaceholder: '64 hexadecimal characters',
  footer:
    'How this works: the page computes the document’s SHA-256, checks that the receipt’s Merkle inclusion proof leads from it to the log’s root (RFC 6962 / RFC 9162) and that the root is signed with the log’s Ed25519 key, that every date and event in the receipt equals what was signed, and that the timestamping authority’s token (RFC 3161) covers the document and chains to a trusted root. The kit’s README shows how to make the same checks by hand with OpenSSL.',
  chosenDocument: 'Document: {{name}}',
  noDocument: 'No document yet',
  chosenProof: 'Proof: {{name}}',
  noProof: 'no receipt or certificate yet',
  giveProof: 'Now give its receipt or certificate.',
  giveDocument: 'Now give the document that was certified.',
  checking: 'Checking…',
  reading: 'Reading {{name}} on this computer.',
  refused: 'Refused',
  noReceipt: 'No receipt found',
  thisDocument: 'This document',
  itsSha256: 'Its SHA-256',
  certifiedSha256: 'Certified SHA-256',
  bytes: '{{name}} ({{size}} bytes)',
  logKey: 'Log key: {{fingerprint}}',
  tsaRoot: 'Timestamping authority’s root: {{fingerprint}}',
  linesShown: 'Showing {{shown}} of {{total}} lines: the first {{each}} of each verdict, in name order.',
  untrustedInSet:
    '{{count}} certified, but signed by a key you have not trusted: compare the fingerprints under “3. Whose signatures vouch for it” with the ones the service publishes, and tick “… they match” if they do.',
  notUsedFromKit: 'Not used from the kit: {{where}}: {{why}}',
  unreadable: 'it could not be read',
  noReceiptIn: NO_RECEIPT_WORDS as Record<keyof typeof NO_RECEIPT_WORDS, string>,
};

export type PageWords = typeof en;

const de: PageWords = {
  title: 'Ein zertifiziertes Dokument prüfen — Evidence Desk',
  brand: 'Evidence Desk · Offline-Prüfung',
  heading: 'Ein zertifiziertes Dokument prüfen',
  lead: 'Prüfen Sie, ob ein Dokument genau das zertifizierte ist, und seit wann. Diese Seite funktioniert ohne Internet und ohne Evidence Desk: Ihre Dateien liest nur dieser Browser, sie werden nirgendwohin gesendet.',
  kitDemo:
    'DEMO: Dieses Nachweispaket wurde in einer Sandbox erstellt. Seine Kryptografie ist echt, aber seine Zertifizierungen haben keinen Beweiswert.',
  language: 'Sprache',
  dropTitle: '1. Dokument und Nachweis angeben',
  dropExplain:
    'Ziehen Sie das *Dokument* und seinen *Beleg* (`.receipt.json`) oder sein *Zertifikat* (`.pdf`) hierher, oder wählen Sie sie aus:',
  documentLabel: 'Dokument',
  proofLabel: 'Beleg oder Zertifikat',
  resultTitle: '2. Das Ergebnis',
  waiting: 'Warte auf ein Dokument und seinen Beleg oder sein Zertifikat.',
  setTitle: 'Oder einen ganzen Dokumentenbestand prüfen',
  setExplain:
    'Wählen Sie den Ordner mit den erhaltenen Dokumenten und den Ordner des Nachweispakets (entpackt): Jedes Dokument wird mit den Belegen des Pakets abgeglichen, und jeder Beleg wird wie oben geprüft.',
  setFolderLabel: 'Ordner mit Dokumenten',
  setKitLabel: 'Ordner des Nachweispakets',
  setWaiting: 'Warte auf einen Ordner mit Dokumenten und das Nachweispaket.',
  columnDocument: 'Dokument',
  columnVerdict: 'Ergebnis',
  columnCertification: 'Zertifizierung',
  trustTitle: '3. Wessen Signaturen dafür einstehen',
  trustExplain:
    'Ein Beleg enthält den öffentlichen Schlüssel des Protokolls, das ihn signiert hat; daher könnte jeder einen in sich stimmigen Beleg erstellen. Das Ergebnis lautet _geprüft_ nur, wenn Sie diesem Schlüssel vertrauen. Bis dahin lautet es _zertifiziert, aber mit einem Schlüssel signiert, dem Sie noch nicht vertrauen_. Ein unabhängiger Zeitstempel (RFC 3161) zählt nur, wenn dem Wurzelzertifikat seines Zeitstempeldienstes ebenso vertraut wird. Namen, Akten und wer zertifiziert hat, werden getrennt gezeigt: Niemand hat sie signiert.',
  kitKeys:
    'Die Belege dieses Nachweispakets sind mit diesen Schlüsseln signiert. Vergleichen Sie jeden Fingerabdruck mit dem, den der Zertifizierungsdienst veröffentlicht (beim Dienst selbst, nie beim Absender des Nachweispakets; Ihre IT-Abteilung hilft dabei), bevor Sie ihnen vertrauen:',
  trustKit:
    'Ich habe sie mit den Fingerabdrücken des Dienstes verglichen, und sie stimmen überein: den Schlüsseln dieses Nachweispakets vertrauen',
  extraKey: 'Oder dem Protokollschlüssel mit diesem SHA-256-Fingerabdruck vertrauen',
  extraRoot: 'und dem Zeitstempeldienst, dessen Wurzelzertifikat diesen SHA-256-Fingerabdruck hat',
  hexPlaceholder: '64 Hexadezimalzeichen',
  footer:
    'So funktioniert es: Die Seite berechnet den SHA-256 des Dokuments, prüft, dass der Merkle-Prüfpfad des Belegs von ihm zur Wurzel des Protokolls führt (RFC 6962 / RFC 9162) und die Wurzel mit dem Ed25519-Schlüssel des Protokolls signiert ist, dass jedes Datum und Ereignis im Beleg dem Signierten entspricht und dass der Zeitstempel (RFC 3161) des Zeitstempeldienstes das Dokument abdeckt und zu einem vertrauenswürdigen Wurzelzertifikat führt. Die README des Pakets zeigt, wie man dieselben Prüfungen von Hand mit OpenSSL vornimmt.',
  chosenDocument: 'Dokument: {{name}}',
  noDocument: 'Noch kein Dokument',
  chosenProof: 'Nachweis: {{name}}',
  noProof: 'noch kein Beleg oder Zertifikat',
  giveProof: 'Geben Sie nun seinen Beleg oder sein Zertifikat an.',
  giveDocument: 'Geben Sie nun das zertifizierte Dokument an.',
  checking: 'Wird geprüft…',
  reading: '{{name}} wird auf diesem Computer gelesen.',
  refused: 'Abgelehnt',
  noReceipt: 'Kein Beleg gefunden',
  thisDocument: 'Dieses Dokument',
  itsSha256: 'Sein SHA-256',
  certifiedSha256: 'Zertifizierter SHA-256',
  bytes: '{{name}} ({{size}} Bytes)',
  logKey: 'Protokollschlüssel: {{fingerprint}}',
  tsaRoot: 'Wurzelzertifikat des Zeitstempeldienstes: {{fingerprint}}',
  linesShown: '{{shown}} von {{total}} Zeilen: die ersten {{each}} je Ergebnis, nach Namen geordnet.',
  untrustedInSet:
    '{{count}} zertifiziert, aber mit einem Schlüssel signiert, dem Sie noch nicht vertrauen: Vergleichen Sie die Fingerabdrücke unter „3. Wessen Signaturen dafür einstehen“ mit denen, die der Dienst veröffentlicht, und kreuzen Sie „… stimmen überein“ an, wenn das der Fall ist.',
  notUsedFromKit: 'Aus dem Nachweispaket nicht verwendet: {{where}}: {{why}}',
  unreadable: 'sie konnte nicht gelesen werden',
  noReceiptIn: {
    pdf_without_receipt:
      'ist ein PDF, enthält aber keinen Beleg von Evidence Desk: Verwenden Sie das Zertifikat, das Evidence Desk gespeichert hat, oder seine .receipt.json.',
    pdf_unreadable:
      'ist ein PDF, dessen Aufbau hier nicht gelesen werden kann (vielleicht wurde es von einem anderen Programm neu gespeichert): Verwenden Sie seine .receipt.json.',
    ambiguous: 'enthält mehr als einen Beleg; es ist nicht eindeutig, welcher gilt. Es wird daher abgelehnt.',
    not_json: 'ist weder ein Beleg von Evidence Desk noch ein Zertifikat, das einen enthält.',
  },
};

export const PAGE_WORDS: Record<Language, PageWords> = { en, de };

/** A page sentence with its {{values}} filled in. */
export const filled = (sentence: string, values: Record<string, string | number> = {}): string =>
  sentence.replace(/\{\{(\w+)\}\}/g, (_all, name: string) => String(values[name] ?? ''));

/**
 * Puts words into an element, their little markup (*bold*, `code`, _emphasis_) as elements: the
 * words are ours, but nothing is ever parsed as HTML.
 */
export function putWords(element: HTMLElement, words: string): void {
  const parts = words.split(/(\*[^*]+\*|`[^`]+`|_[^_]+_)/);
  element.replaceChildren(
    ...parts.map((part) => {
      const tag = part.startsWith('*')
        ? 'strong'
        : part.startsWith('`')
          ? 'code'
          : part.startsWith('_')
            ? 'em'
            : null;
      return tag && part.length > 2
        ? Object.assign(document.createElement(tag), { textContent: part.slice(1, -1) })
        : document.createTextNode(part);
    }),
  );
}
