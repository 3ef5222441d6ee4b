import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const NO_ELECTRON = { name: 'electron', message: 'Only main/electron/ and preload/ may import electron.' };
const NO_SQL = { name: 'better-sqlite3', message: 'Only main/store/ may touch SQL.' };
const NO_ELECTRON_IN_RENDERER = {
  name: 'electron',
  message: 'The renderer reaches main only through the bridge.',
};
const NOT_MAIN = 'The preload and the renderer use preload/contract.ts and protocol/, never main/.';
const OURS = [
  '**/main/**',
  '**/verifier/**',
  '**/sandbox/**',
  '**/renderer/**',
  '**/preload/**',
  '**/test/**',
];
const NO_SANDBOX_IN_CORE = {
  group: ['**/sandbox/**'],
  message: 'The core never imports the sandbox: the shells pass in a starter for the embedded service.',
};

// What a shell (the command line, the Electron shell and its IPC handlers) may reach: the core and
// its services, and the platform pieces; never the modules the services are built from.
const BELOW_THE_CORE = {
  group: [
    '**/store',
    '**/store/**',
    '**/hashing/**',
    '**/intake/**',
    '**/sync/**',
    '**/timestamps/**',
    '**/queue/**',
    '**/preferences/**',
    '**/config/*',
    '!**/config/data-dir',
    '**/service/*',
    '!**/service/network',
    '**/evidence/*',
    '!**/evidence/verification',
    '!**/evidence/evidence-exports',
    '**/watch/*',
    '!**/watch/watched-folders',
    '**/sets/*',
    '!**/sets/set-verification',
    '!**/sets/set-report',
    '**/profiles/*',
    '**/tools/**',
  ],
  message:
    'The shells reach the core and its services (core.ts, evidence/verification, evidence/evidence-exports, sets/set-verification and its report, watch/watched-folders) and the platform pieces (logging, secrets, config/data-dir, service/network, desktop-policy), not what the services are built from.',
};

// The core's folders, bottom to top (docs/architecture.md, "Layers inside main/"): tools that know
// nothing of evidence, the platform (SQL, keychain, hashing, HTTP, policy, connections), then the
// domain services, each of which may import only the folders before it. So no two folders import
// each other, and nothing below reaches up. core.ts wires them all; the shells sit above it.
export const CORE_LAYERS = [
  'tools',
  'logging',
  'store',
  'secrets',
  'hashing',
  'service',
  'desktop-policy',
  'config',
  'preferences',
  'timestamps',
  'evidence',
  'sets',
  'sync',
  'queue',
  'intake',
  'watch',
  'profiles',
];
const SHELLS_AND_ROOT = ['core', 'cli', 'ipc', 'electron'];
/** An import of main/NAME from a file one, two or three folders deep inside main/. */
const importsOf = (name) =>
  ['../', '../../', '../../../'].flatMap((up) => [`${up}${name}`, `${up}${name}/**`]);
const layerRules = CORE_LAYERS.map((folder, at) => ({
  files: [`main/${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: folder === 'store' ? [NO_ELECTRON] : [NO_ELECTRON, NO_SQL],
        patterns: [
          NO_SANDBOX_IN_CORE,
          {
            group: [...CORE_LAYERS.slice(at + 1), ...SHELLS_AND_ROOT].flatMap(importsOf),
            message: `main/${folder}/ may import only the core's folders below it (${CORE_LAYERS.slice(0, at).join(', ') || 'none'}) and main/'s own tools (errors, progress-pace, worker-url): a folder never reaches up a layer (docs/architecture.md).`,
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['node_modules/**', '.tools/**', 'dist/**', 'out/**', 'release/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // A test that reaches a missing value should fail loudly right there, which `!` does.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Process boundaries are enforced here, not remembered: only the Electron shell and the
    // preload may import electron; the renderer reaches main only through the bridge.
    files: [
      'main/**/*.ts',
      'sandbox/**/*.ts',
      'protocol/**/*.ts',
      'renderer/**/*.{ts,tsx}',
      'test/**/*.ts',
      'bench/**/*.ts',
    ],
    ignores: ['main/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only main/electron/ and preload/ may import electron.' }] },
      ],
    },
  },
  {
    // Only the store modules speak SQL; everyone else calls their intention-named functions. The
    // core takes the embedded service from its shells (the CLI and the Electron shell start it).
    files: ['main/**/*.ts'],
    ignores: ['main/store/**', 'main/electron/**', 'main/cli.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [NO_ELECTRON, NO_SQL], patterns: [NO_SANDBOX_IN_CORE] }],
    },
  },
  ...layerRules,
  {
    // The shared vocabulary depends on nothing of ours: every side can import it without pulling
    // in another's code.
    files: ['protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_ELECTRON],
          patterns: [{ group: OURS, message: 'protocol/ imports nothing of ours outside protocol/.' }],
        },
      ],
    },
  },
  {
    files: ['main/electron/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_SQL], patterns: [BELOW_THE_CORE] }] },
  },
  {
    files: ['main/cli/**/*.ts', 'main/cli.ts', 'main/ipc/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [NO_ELECTRON, NO_SQL], patterns: [BELOW_THE_CORE] }],
    },
  },
  {
    // The bridge and the page speak the contract and the shared vocabulary (protocol/), never main's
    // modules: what crosses IPC is written once, where both sides can see it.
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_ELECTRON_IN_RENDERER],
          patterns: [{ group: ['**/main/**', '../main', '../../main'], message: NOT_MAIN }],
        },
      ],
    },
  },
  {
    // Screens call main through renderer/src/actions.ts and renderer/src/calls/ (one module per
    // domain), never the bridge itself: each call's failure is handled, and said, in one place.
    files: ['renderer/src/components/**/*.tsx', 'renderer/src/App.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            NO_ELECTRON_IN_RENDERER,
            ...['../bridge', './bridge'].map((name) => ({
              name,
              importNames: ['bridge'],
              message: 'Call main through actions.ts or a module of calls/, not the bridge.',
            })),
          ],
          patterns: [{ group: ['**/main/**', '../main', '../../main'], message: NOT_MAIN }],
        },
      ],
    },
  },
  {
    // The preload may import electron (it is the bridge), but nothing of main.
    files: ['preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/main/**', '../main', '../../main'], message: NOT_MAIN }] },
      ],
    },
  },
  {
    // The renderer imports the contract for its types only: zod schemas stay in main and the preload.
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '../../preload/contract',
              message: 'Types only from the contract.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // The verifier runs in a browser from file:// (verify.html) as well as in Evidence Desk:
    // nothing of Node, nothing of main.
    files: ['verifier/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'The verifier must run in a browser.' },
            { group: ['**/main/**', '../main'], message: 'The verifier stands alone.' },
          ],
        },
      ],
    },
  },
);
