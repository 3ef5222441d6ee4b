// A RECORDING STAND-IN for the `electron` module, for booting the built dist/main bundle under
// plain Node (Electron's binary cannot be downloaded here). It implements the few APIs the shell
// calls, records every call that matters, and takes orders from the test over Node's IPC channel:
// it is a test double, not Electron, and says so. The real `electron` package is never required.
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';

const record = {
  readyBefore: [],
  privilegedSchemes: [],
  windows: [],
  loadedUrls: [],
  ipcChannels: [],
  menus: [],
  tray: null,
  notifications: [],
  dialogs: [],
  badge: [],
  loginItems: [],
  openedExternally: [],
  guardedContents: 0,
  exitCode: null,
};
let ready = false;
let nextDialogAnswer = 1;
const protocolHandlers = new Map();
const ipcHandlers = new Map();
let contentsIds = 0;

class AppStandIn extends EventEmitter {
  isPackaged = false;
  #quitting = false;
  whenReady() {
    return new Promise((resolve) =>
      setImmediate(() => {
        ready = true;
        resolve();
      }),
    );
  }
  isReady() {
    return ready;
  }
  setName() {}
  setPath() {}
  getPath(name) {
    return `${process.env.STANDIN_DIR}/${name}`;
  }
  requestSingleInstanceLock() {
    return true;
  }
  getPreferredSystemLanguages() {
    return ['en-US'];
  }
  getLoginItemSettings() {
    return { openAtLogin: record.loginItems.at(-1)?.openAtLogin ?? false, wasOpenedAtLogin: false };
  }
  setLoginItemSettings(settings) {
    record.loginItems.push(settings);
  }
  setBadgeCount(count) {
    record.badge.push(count);
  }
  quit() {
    if (this.#quitting) return;
    const event = prevented();
    this.emit('before-quit', event);
    if (event.defaultPrevented) return;
    this.#quitting = true;
    for (const window of record.windows.map((w) => w.instance)) window.destroy();
    this.emit('will-quit', prevented());
  }
  exit(code) {
    record.exitCode = code;
    process.send?.({ type: 'exit', code }, () => process.exit(code));
  }
}
export const app = new AppStandIn();

function prevented() {
  const event = {
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return event;
}

class WebContentsStandIn extends EventEmitter {
  id = ++contentsIds;
  url = '';
  sent = [];
  mainFrame = { url: '', parent: null, name: 'main' };
  openHandler = null;
  constructor() {
    super();
    app.emit('web-contents-created', prevented(), this);
  }
  setWindowOpenHandler(handler) {
    this.openHandler = handler;
    record.guardedContents++;
  }
  getURL() {
    return this.url;
  }
  send(channel, payload) {
    this.sent.push({ channel, payload });
  }
  closeDevTools() {}
}

export class BrowserWindow extends EventEmitter {
  #visible = false;
  #destroyed = false;
  constructor(options) {
    super();
    this.options = options;
    this.webContents = new WebContentsStandIn();
    record.windows.push({ options, instance: this });
  }
  async loadURL(url) {
    if (!ready) throw new Error('loadURL before the app is ready');
    record.loadedUrls.push(url);
    this.webContents.url = url;
    this.webContents.mainFrame.url = url;
    setImmediate(() => this.emit('ready-to-show'));
  }
  async loadFile(path) {
    record.loadedUrls.push(`file://${path}`);
  }
  show() {
    this.#visible = true;
  }
  hide() {
    this.#visible = false;
  }
  isVisible() {
    return this.#visible;
  }
  focus() {}
  restore() {}
  maximize() {}
  isMinimized() {
    return false;
  }
  isMaximized() {
    return false;
  }
  getNormalBounds() {
    return { x: 0, y: 0, width: 1200, height: 800 };
  }
  setTitle(title) {
    this.title = title;
  }
  isDestroyed() {
    return this.#destroyed;
  }
  destroy() {
    this.#destroyed = true;
  }
  /** What clicking the window's close button does: the app may prevent it. */
  close() {
    const event = prevented();
    this.emit('close', event);
    if (event.defaultPrevented) return false;
    this.destroy();
    this.emit('closed');
    if (record.windows.every((w) => w.instance.isDestroyed())) app.emit('window-all-closed');
    return true;
  }
}

export const ipcMain = {
  handle(channel, handler) {
    ipcHandlers.set(channel, handler);
    record.ipcChannels.push(channel);
  },
  removeHandler(channel) {
    ipcHandlers.delete(channel);
  },
};

let applicationMenu = null;
export const Menu = {
  buildFromTemplate(template) {
    return { template };
  },
  setApplicationMenu(menu) {
    applicationMenu = menu;
    record.menus.push(labelsOf(menu.template));
  },
};
const labelsOf = (items) =>
  items.map((item) => ({
    label: item.label ?? item.role ?? item.type,
    submenu: item.submenu && labelsOf(item.submenu),
  }));

export class Tray extends EventEmitter {
  constructor(image) {
    super();
    record.tray = { icon: image.path, iconExists: existsSync(image.path), tooltip: '', title: '', items: [] };
    this.menu = null;
    trays.push(this);
  }
  setToolTip(text) {
    record.tray.tooltip = text;
  }
  setTitle(text) {
    record.tray.title = text;
  }
  setContextMenu(menu) {
    this.menu = menu;
    record.tray.items = menu.template.map((item) => ({ label: item.label, enabled: item.enabled }));
  }
  destroy() {
    record.tray.destroyed = true;
  }
}
const trays = [];

export class Notification {
  static isSupported() {
    return true;
  }
  constructor(options) {
    this.options = options;
  }
  show() {
    record.notifications.push({ title: this.options.title, body: this.options.body });
  }
}

export const dialog = {
  async showMessageBox(_window, options) {
    record.dialogs.push({ message: options.message, buttons: options.buttons, defaultId: options.defaultId });
    return { response: nextDialogAnswer };
  },
  showErrorBox(title, content) {
    record.dialogs.push({ error: title, content });
  },
  async showOpenDialog() {
    return { canceled: true, filePaths: [] };
  },
  async showSaveDialog() {
    return { canceled: true };
  },
};

export const shell = {
  openExternal: async (url) => void record.openedExternally.push(url),
  showItemInFolder: () => undefined,
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler() {},
    setPermissionCheckHandler() {},
    webRequest: { onHeadersReceived() {} },
  },
};

export const nativeImage = {
  createFromPath: (path) => ({ path, isEmpty: () => !existsSync(path) }),
};

export const protocol = {
  registerSchemesAsPrivileged(schemes) {
    record.privilegedSchemes.push(...schemes.map((s) => ({ ...s, beforeReady: !ready })));
  },
  handle(scheme, handler) {
    protocolHandlers.set(scheme, handler);
  },
};

export const net = { fetch: (...args) => fetch(...args) };

// Orders from the test, answered with what happened.
process.on('message', async (order) => {
  const answer = (value) => process.send?.({ type: 'answer', id: order.id, value });
  const window = record.windows[0]?.instance;
  switch (order.type) {
    case 'record':
      return answer({
        ...record,
        windows: record.windows.map((w) => ({
          options: w.options,
          visible: w.instance.isVisible(),
          destroyed: w.instance.isDestroyed(),
          title: w.instance.title,
        })),
        openHandlerRefuses: window?.webContents.openHandler?.({ url: 'https://example.com/' })?.action,
      });
    case 'invoke': {
      const handler = ipcHandlers.get(order.channel);
      if (!handler) return answer({ missing: order.channel });
      const frame =
        order.from === 'subframe'
          ? { url: window.webContents.url, parent: window.webContents.mainFrame }
          : window.webContents.mainFrame;
      return answer(await handler({ sender: window.webContents, senderFrame: frame }, order.input));
    }
    case 'fetch': {
      const response = await protocolHandlers.get('app')(new Request(order.url));
      return answer({
        status: response.status,
        type: response.headers.get('content-type'),
        csp: response.headers.get('content-security-policy'),
        body: response.status === 200 ? (await response.text()).slice(0, 200) : '',
      });
    }
    case 'close-window':
      return answer({ closed: window.close() });
    case 'quit':
      nextDialogAnswer = order.answer ?? 1;
      app.quit();
      return answer(null);
    case 'menu':
      applicationMenu?.template
        .find((menu) => menu.label === order.menu)
        ?.submenu?.find((item) => item.label === order.label)
        ?.click?.();
      return answer(null);
    case 'tray':
      trays
        .at(-1)
        ?.menu?.template.find((item) => item.label === order.label)
        ?.click();
      return answer(null);
  }
});

export default {
  app,
  BrowserWindow,
  ipcMain,
  Menu,
  Tray,
  Notification,
  dialog,
  shell,
  session,
  nativeImage,
  protocol,
  net,
};
