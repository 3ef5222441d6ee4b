/** A mounted file system: where, and of which type. */
export interface Mount {
  mountPoint: string;
  type: string;
}

// File systems whose change events cannot be trusted: the server does not tell the client.
const NETWORK_TYPES = new Set([
  'nfs',
  'nfs4',
  'cifs',
  'smb3',
  'smbfs',
  'afpfs',
  'webdav',
  'davfs',
  'fuse.sshfs',
  'fuse.rclone',
  'ncpfs',
  '9p',
]);

/** /proc/self/mounts (Linux): "server:/export /mnt/share nfs4 rw,… 0 0"; spaces in paths as \040. */
export function mountsFromProcMounts(text: string): Mount[] {
  return text
    .split('\n')
    .map((line) => line.split(' '))
    .filter((fields) => fields.length >= 3)
    .map(([, mountPoint, type]) => ({
      mountPoint: (mountPoint as string).replace(/\\(\d{3})/g, (_, octal: string) =>
        String.fromCharCode(parseInt(octal, 8)),
      ),
      type: type as string,
    }));
}

/** macOS `mount`: "//user@server/share on /Volumes/share (smbfs, nodev, nosuid, mounted by user)". */
export function mountsFromMountCommand(text: string): Mount[] {
  return text
    .split('\n')
    .map((line) => /^.+? on (.+) \(([^,)]+)/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ mountPoint: match[1] as string, type: match[2] as string }));
}

/**
 * Whether a folder sits on a network share, where change events do not arrive reliably and the
 * folder is polled instead: a UNC path on Windows (\\server\share), or a path under a mount of a
 * network file system (NFS, SMB, AFP, WebDAV, sshfs) on macOS and Linux. A Windows drive letter
 * mapped to a share cannot be told from a path: the person chooses polling in the folder's settings.
 */
export function isOnNetworkShare(path: string, platform: NodeJS.Platform, mounts: readonly Mount[]): boolean {
  if (platform === 'win32') return /^(\\\\|\/\/)[^\\/?.]/.test(path);
  const deepest = mounts
    .filter(
      ({ mountPoint }) =>
        path === mountPoint || path.startsWith(mountPoint.endsWith('/') ? mountPoint : `${mountPoint}/`),
    )
    .sort((a, b) => b.mountPoint.length - a.mountPoint.length)[0];
  return deepest !== undefined && NETWORK_TYPES.has(deepest.type);
}
