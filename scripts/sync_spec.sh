#!/usr/bin/env bash
# Copy the rules contract into docs/SPEC.md byte for byte, so the repository stands alone.
# Run it whenever the contract changes; tests/test_hygiene.py fails while the copy differs from
# ../shared/rules/SPEC.md (when that file is there).
#
# Usage: scripts/sync_spec.sh [SOURCE [DEST]]
#   SOURCE  the contract (default: ../shared/rules/SPEC.md beside the repository)
#   DEST    where the copy goes (default: docs/SPEC.md in the repository)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
source="${1:-$repo/../shared/rules/SPEC.md}"
dest="${2:-$repo/docs/SPEC.md}"
if [ ! -f "$source" ]; then
    echo "sync_spec.sh: no contract at $source (give its path as the first argument)" >&2
    exit 1
fi
if [ -f "$dest" ] && cmp -s "$source" "$dest"; then
    echo "$dest is up to date"
    exit 0
fi
cp "$source" "$dest"
echo "copied $source to $dest"
