#!/bin/sh
# The probe's checks: validate every rule file, run every scenario, then have
# bots play 20 games of each rule at 2 and at 4 players (every game must
# finish), then check_base.sh. Run from anywhere, with kittens on the PATH.
cd "$(dirname "$0")" || exit 2
status=0
kittens validate *.yaml scenarios/ || status=1
kittens test . || status=1
for f in *.yaml; do
  for p in 2 4; do
    if out=$(kittens run "$f" -p "$p" -g 20 2>&1); then
      won=$(echo "$out" | grep -c ' wins after ')
      echo "run $f -p $p: $won of 20 games finished; $(echo "$out" | grep -m1 'mean turns' | sed 's/;.*//; s/^ *//')"
      [ "$won" -eq 20 ] || status=1
    else
      echo "RUN FAILED $f -p $p"; echo "$out" | tail -5; status=1
    fi
  done
done
sh ./check_base.sh || status=1
exit $status
