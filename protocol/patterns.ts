/** The shapes the spec gives for certification fields, as plain patterns any layer can use. */
export const ASSET_HASH_PATTERN = /^[0-9a-fA-F]{64}$/;
export const EVENT_TYPE_PATTERN = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
