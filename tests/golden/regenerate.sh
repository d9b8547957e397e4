#!/usr/bin/env bash
# Rewrite the golden game transcripts after an intended change of the engine
# or of the shipped rules; review the diff before committing it.
# The logs' headers lose `edition_path` (and their check is worked out again) (where this machine keeps the edition): a
# golden file names its edition relative to its own folder, which replay also reads,
# so the files are the same on every machine. tests/test_logs.py checks that header.
set -euo pipefail
cd "$(dirname "$0")"
kittens run ../../editions/original.yaml -p 4 --seed 1 --bots random --log original-4p-random-seed1.jsonl
kittens run ../../editions/original.yaml -p 3 --seed 2 --bots heuristic,random --log original-3p-heuristic-seed2.jsonl
kittens run ../../editions/original.yaml -p 2 --seed 3 --variant older_printing --bots heuristic --log older-printing-2p-seed3.jsonl
python - original-4p-random-seed1.jsonl original-3p-heuristic-seed2.jsonl older-printing-2p-seed3.jsonl <<'EOF'
import json, sys
from kittens.interpreter.engine.logwriter import dumps
from kittens.interpreter.engine.simulate import header_check
for name in sys.argv[1:]:  # the header without edition_path, and its check worked out again
    lines = open(name, encoding="utf-8").read().split("\n")
    header = json.loads(lines[0])
    header.pop("edition_path")
    header["check"] = header_check(header)
    lines[0] = dumps(header)
    open(name, "w", encoding="utf-8").write("\n".join(lines))
EOF
