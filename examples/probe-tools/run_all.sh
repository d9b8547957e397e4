#!/bin/sh
# A probe's checks: validate every rule file and scenario, run every scenario,
# have bots play 20 games of each rule at 2 and at 4 players (the rule's
# smallest count instead of 2 when it needs more; every game must finish),
# then check_base.sh.
# Usage, with kittens on the PATH:
#   sh examples/probe-tools/run_all.sh examples/probe3
dir=${1:?usage: run_all.sh PROBE_DIRECTORY}
tools=$(cd "$(dirname "$0")" && pwd)
cd "$dir" || exit 2
status=0
kittens validate *.yaml scenarios/ || status=1
kittens test . || status=1
for f in *.yaml; do
  for p in 2 4; do
    out=$(kittens run "$f" -p "$p" -g 20 2>&1)
    case "$out" in *"is for "*" to "*" players, not"*)
      p=$(echo "$out" | sed -n 's/.* is for \([0-9]*\) to .*/\1/p' | head -1)
      out=$(kittens run "$f" -p "$p" -g 20 2>&1);; esac
    won=$(echo "$out" | grep -cE ' wins after | win together after ')
    if [ "$won" -eq 20 ]; then
      echo "run $f -p $p: 20 of 20 games finished; $(echo "$out" | grep -m1 'mean turns' | sed 's/;.*//; s/^ *//')"
    else
      echo "RUN FAILED $f -p $p: $won of 20 games finished"; echo "$out" | tail -5; status=1
    fi
  done
done
sh "$tools/check_base.sh" . || status=1
exit $status
