// Module resolution hooks: `electron` resolves to the recording stand-in beside this file, for
// both `import` (the main bundle) and `require` (through Node's module hooks); nothing else changes.
const STAND_IN = new URL('./electron.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') return { url: STAND_IN, shortCircuit: true };
  return nextResolve(specifier, context);
}
