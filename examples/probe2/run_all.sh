#!/bin/sh
# Bots play 20 games of every probe rule at 2 and 4 players (3 and 4 for a
# rule that needs three or more); prints the summary line of each run, or the
# error of a run that did not finish.
# Run from the repository root: sh examples/probe2/run_all.sh
for f in examples/probe2/*.yaml; do
  for p in 2 4; do
    out=$(kittens run "$f" -g 20 -p "$p" 2>&1)
    case "$out" in *"is for 3 to"*) p=3; out=$(kittens run "$f" -g 20 -p 3 2>&1);; esac
    line=$(printf '%s\n' "$out" | grep -E '^20 games' | head -1)
    [ -n "$line" ] || line=$(printf '%s\n' "$out" | grep -E 'kittens run:' | head -1)
    echo "$(basename "$f") -p $p: ${line:-NO SUMMARY}"
  done
done
