#!/bin/sh
# Every scenario of a probe must FAIL against the plain Original: each is
# copied with its `edition:` line set to `original` (and any `with:` line
# dropped) and run; a scenario that still passes there does not test its rule,
# and this script names it. Usage, with kittens on the PATH:
#   sh examples/probe-tools/check_base.sh examples/probe3
dir=${1:?usage: check_base.sh PROBE_DIRECTORY}
cd "$dir" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
bad=0; n=0
for f in scenarios/*/*.yaml; do
  n=$((n + 1))
  out="$tmp/$(echo "$f" | tr / _)"
  sed -e 's|^edition: .*|edition: original|' -e '/^with:/d' "$f" > "$out"
  if kittens test "$out" > "$tmp/log" 2>&1; then
    echo "PASSES ON BASE (does not test its rule): $f"; bad=$((bad + 1))
  else
    why=$(sed -n 2p "$tmp/log" | sed 's|^[^ ]*: ||' | cut -c1-110)
    echo "fails on base: $f -- $why"
  fi
done
echo "$n scenarios, $bad pass on the base edition"
[ "$bad" -eq 0 ]
