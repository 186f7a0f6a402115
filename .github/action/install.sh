#!/usr/bin/env bash
# Installs the partner command for the action in action.yml (and runs as it
# is by hand): a released binary for the runner's OS and architecture,
# checked against the release's checksums, or a local binary. Settings, all
# optional, from the environment:
#
#   PARTNER_BINARY        a partner binary already on this machine: installed
#                         as it is, nothing is downloaded
#   PARTNER_VERSION       the release: 1.2.3, v1.2.3, cmd/partner/v1.2.3 or
#                         latest; empty: the action's own ref when it is a
#                         release tag (uses: locsvc/partner-go@cmd/partner/v1.2.3),
#                         else latest
#   PARTNER_ACTION_REF    the action's ref (github.action_ref)
#   PARTNER_RELEASES_URL  where releases are (default
#                         https://github.com/locsvc/partner-go/releases)
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_PATH: as a
#                         GitHub runner sets them (uname and /tmp otherwise)
#
# It installs into RUNNER_TEMP/partner-bin, adds that folder to GITHUB_PATH
# (later steps run `partner`), writes the outputs path and version to
# GITHUB_OUTPUT, and prints `partner version`.
set -euo pipefail

fail() { echo "::error::install partner: $*" >&2; exit 1; }

releases=${PARTNER_RELEASES_URL:-https://github.com/locsvc/partner-go/releases}
dest=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/partner-bin
exe=partner
case ${RUNNER_OS:-$(uname -s)} in
  Linux) os=linux ;;
  macOS | Darwin) os=darwin ;;
  Windows | MINGW* | MSYS* | CYGWIN*) os=windows exe=partner.exe ;;
  *) fail "no release for the OS ${RUNNER_OS:-$(uname -s)}" ;;
esac
mkdir -p "$dest"

if [ -n "${PARTNER_BINARY:-}" ]; then
  if [ ! -f "$PARTNER_BINARY" ] || [ ! -x "$PARTNER_BINARY" ]; then
    fail "PARTNER_BINARY=$PARTNER_BINARY is not an executable file"
  fi
  cp "$PARTNER_BINARY" "$dest/$exe"
else
  case ${RUNNER_ARCH:-$(uname -m)} in
    X64 | x86_64 | amd64) arch=amd64 ;;
    ARM64 | arm64 | aarch64) arch=arm64 ;;
    *) fail "no release for the architecture ${RUNNER_ARCH:-$(uname -m)}" ;;
  esac
  version=${PARTNER_VERSION:-}
  if [ -z "$version" ]; then
    case ${PARTNER_ACTION_REF:-} in
      cmd/partner/v*) version=$PARTNER_ACTION_REF ;;
      *) version=latest ;;
    esac
  fi
  if [ "$version" = latest ]; then
    # The latest release's page redirects to its tag: no API call, no token.
    url=$(curl -fsSL -o /dev/null -w '%{url_effective}' "$releases/latest") ||
      fail "finding the latest release at $releases/latest"
    version=${url##*/releases/tag/}
    version=${version//%2F//}
  fi
  version=${version#cmd/partner/}
  version=${version#v}
  case $version in
    "" | */* | *[!A-Za-z0-9.+-]*) fail "release version '$version': want 1.2.3, v1.2.3, cmd/partner/v1.2.3 or latest" ;;
  esac
  ext=tar.gz
  [ "$os" = windows ] && ext=zip
  archive=partner_${version}_${os}_${arch}.$ext
  sums=partner_${version}_checksums.txt
  base=$releases/download/cmd/partner/v$version
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  for f in "$archive" "$sums"; do
    curl -fsSL --retry 3 -o "$work/$f" "$base/$f" || fail "downloading $base/$f"
  done
  want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$work/$sums")
  [ -n "$want" ] || fail "$sums has no line for $archive"
  if command -v sha256sum >/dev/null; then
    got=$(sha256sum "$work/$archive" | awk '{ print $1 }')
  else
    got=$(shasum -a 256 "$work/$archive" | awk '{ print $1 }')
  fi
  [ "$got" = "$want" ] || fail "$archive: checksum $got, want $want (from $sums)"
  mkdir "$work/x"
  if [ "$ext" = zip ]; then
    unzip -q "$work/$archive" -d "$work/x"
  else
    tar -xzf "$work/$archive" -C "$work/x"
  fi
  [ -f "$work/x/$exe" ] || fail "$archive holds no $exe"
  mv "$work/x/$exe" "$dest/$exe"
  chmod +x "$dest/$exe"
fi

"$dest/$exe" version
{
  echo "path=$dest/$exe"
  echo "version=$("$dest/$exe" version --json | awk -F'"' '$2 == "version" { print $4 }')"
} >>"${GITHUB_OUTPUT:-/dev/null}"
echo "$dest" >>"${GITHUB_PATH:-/dev/null}"
