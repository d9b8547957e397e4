#!/bin/sh
# Runs every probe scenario against the plain Original (edition: original,
# no `with`) and lists any that still PASS there: each one should fail, so
# that it tests its rule. Run from the repository root:
#   sh examples/probe2/check_base.sh
tmp=$(mktemp -d)
status=0
for f in examples/probe2/scenarios/*/*.yaml; do
  out="$tmp/$(basename "$(dirname "$f")")-$(basename "$f")"
  sed -e 's|^edition: .*|edition: original|' -e '/^with:/d' "$f" > "$out"
  if kittens test "$out" >/dev/null 2>&1; then
    echo "PASSES ON THE BASE: $f"; status=1
  else
    echo "fails on the base, as it should: $f"
  fi
done
rm -rf "$tmp"
exit $status
