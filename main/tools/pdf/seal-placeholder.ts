/** An empty document timestamp, filled in once the file around it is final (seal.ts). */

/** Room for the token: real TSAs' tokens with their chains are 2–8 KiB. */
export const CONTENTS_BYTES = 16 * 1024;
// Ten digits: wide enough for any offset of a file below 10 GB; the real numbers are padded to it.
export const BYTE_RANGE_PLACEHOLDER = 9_999_999_999;
export const PLACEHOLDER_TEXT = `/ByteRange [0 ${BYTE_RANGE_PLACEHOLDER} ${BYTE_RANGE_PLACEHOLDER} ${BYTE_RANGE_PLACEHOLDER}]`;
export const EMPTY_CONTENTS = Buffer.from(`<${'00'.repeat(CONTENTS_BYTES)}>`, 'latin1');
/** An empty document timestamp's dictionary as an update writes it: sealPdf fills the last one in a file. */
export const SIGNATURE_PLACEHOLDER = `<< /Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161 ${PLACEHOLDER_TEXT} /Contents ${EMPTY_CONTENTS.toString('latin1')} >>`;
