#!/usr/bin/env bash
# Runs a command with a real OS keychain available to keytar.
# On Linux without a running Secret Service (CI, containers, SSH sessions) it starts a
# private D-Bus session with gnome-keyring unlocked by a throwaway password, so tests
# exercise the real keychain instead of a stand-in. macOS and Windows use their own.
set -euo pipefail
if [ "$(uname -s)" != "Linux" ] || [ -n "${EVIDENCE_DESK_KEYCHAIN_READY:-}" ]; then
  exec "$@"
fi
for tool in dbus-run-session gnome-keyring-daemon; do
  command -v "$tool" >/dev/null || { echo "with-keychain: '$tool' is missing (apt-get install dbus gnome-keyring)" >&2; exit 127; }
done
exec dbus-run-session -- bash -c '
  set -euo pipefail
  # The keyring lives in a temporary home so a test run never touches a real login keyring.
  export XDG_DATA_HOME="$(mktemp -d)"
  trap "rm -rf \"$XDG_DATA_HOME\"" EXIT
  eval "$(printf "throwaway\n" | gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)"
  export EVIDENCE_DESK_KEYCHAIN_READY=1
  "$@"
' with-keychain "$@"
