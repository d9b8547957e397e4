#!/bin/sh
# Every scenario of this probe must FAIL against the plain Original: each is
# copied with its `edition:` line set to `original` and run; a scenario that
# still passes there does not test its rule, and this script says so.
# Run from anywhere, with kittens on the PATH.
cd "$(dirname "$0")" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
bad=0; n=0
for f in scenarios/*/*.yaml; do
  n=$((n + 1))
  out="$tmp/$(echo "$f" | tr / _)"
  sed 's|^edition: .*|edition: original|' "$f" > "$out"
  if kittens test "$out" > "$tmp/log" 2>&1; then
    echo "PASSES ON BASE (does not test its rule): $f"; bad=$((bad + 1))
  else
    why=$(sed -n 2p "$tmp/log" | sed 's|^[^ ]*: ||' | cut -c1-110)
    echo "fails on base: $f -- $why"
  fi
done
echo "$n scenarios, $bad pass on the base edition"
[ "$bad" -eq 0 ]
