#!/bin/sh
# Bots play 20 games of every probe rule at 2 and 4 players; prints the
# summary line of each run and stops at the first run that does not finish.
# Run from the repository root: sh examples/probe/run_all.sh
for f in examples/probe/*.yaml; do
  for p in 2 4; do
    line=$(kittens run "$f" -g 20 -p "$p" 2>&1 | grep -E '^20 games|error' | head -1)
    echo "$(basename "$f") -p $p: ${line:-NO SUMMARY}"
  done
done
