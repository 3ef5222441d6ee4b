import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Menu, dialog, shell } from 'electron';
import type { BrowserWindow, MenuItemConstructorOptions } from 'electron';
import type { ShellCommand } from '../../protocol/views';
import type { ShellText } from '../desktop-policy/background';
import type { UpdateDecision } from '../desktop-policy/update-policy';

/** The application menu: standard accelerators per platform; actions become commands for the window. */
export function installMenu(
  window: BrowserWindow,
  command: (command: ShellCommand) => void,
  t: ShellText,
  updates: { decision: UpdateDecision; check(): void },
  /** Where the help pages are (resources/help beside the bundles). */
  helpFolder: string,
): void {
  const mac = process.platform === 'darwin';
  const choose = async (properties: ('openFile' | 'openDirectory' | 'multiSelections')[]) => {
    const result = await dialog.showOpenDialog(window, { properties });
    return result.canceled ? [] : result.filePaths;
  };
  // A build run from a checkout has nothing to update; a managed install says who updates it.
  const updateItem: MenuItemConstructorOptions = updates.decision.enabled
    ? { label: t('menu.checkForUpdates'), click: () => updates.check() }
    : updates.decision.reason === 'not-packaged'
      ? { type: 'separator', visible: false }
      : { label: t('menu.updatesManaged'), enabled: false };
  const fileMenu: MenuItemConstructorOptions = {
    label: t('menu.file'),
    submenu: [
      {
        label: t('menu.addFiles'),
        accelerator: 'CmdOrCtrl+O',
        click: async () => addPaths(await choose(['openFile', 'multiSelections'])),
      },
      {
        label: t('menu.addFolder'),
        accelerator: 'CmdOrCtrl+Shift+O',
        click: async () => addPaths(await choose(['openDirectory', 'multiSelections'])),
      },
      {
        label: t('menu.verifyFile'),
        accelerator: 'CmdOrCtrl+Shift+V',
        click: async () => {
          const [path] = await choose(['openFile']);
          if (path) command({ kind: 'verify-path', path });
        },
      },
      { type: 'separator' },
      ...(mac
        ? []
        : [
            {
              label: t('menu.settings'),
              accelerator: 'Ctrl+,',
              click: () => command({ kind: 'open-settings' }),
            },
            updateItem,
            { type: 'separator' as const },
            { role: 'quit' as const },
          ]),
    ],
  };
  // In the person's browser, in the menus' language: it reads offline, from the installed app.
  const openHelp = (section?: string) =>
    void shell.openExternal(
      `${pathToFileURL(join(helpFolder, t('menu.helpPage'))).href}${section ? `#${section}` : ''}`,
    );
  const addPaths = (paths: string[]) => {
    if (paths.length) command({ kind: 'add-paths', paths });
  };
  const template: MenuItemConstructorOptions[] = [
    ...(mac
      ? [
          {
            label: 'Evidence Desk',
            submenu: [
              { role: 'about' as const },
              updateItem,
              { type: 'separator' as const },
              {
                label: t('menu.settings'),
                accelerator: 'Cmd+,',
                click: () => command({ kind: 'open-settings' }),
              },
              { type: 'separator' as const },
              { role: 'hide' as const },
              { role: 'quit' as const },
            ],
          },
        ]
      : []),
    fileMenu,
    { role: 'editMenu', label: t('menu.edit') },
    { role: 'viewMenu', label: t('menu.view') },
    { role: 'windowMenu', label: t('menu.window') },
    {
      role: 'help',
      label: t('menu.help'),
      submenu: [
        { label: t('menu.userGuide'), click: () => openHelp() },
        { label: t('menu.othersCheck'), click: () => openHelp('checking') },
        { label: t('menu.keyboard'), click: () => openHelp('keys') },
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
