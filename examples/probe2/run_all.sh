#!/bin/sh
# This probe's checks (validate, test, bot games, check_base): the shared script.
exec sh "$(dirname "$0")/../probe-tools/run_all.sh" "$(dirname "$0")"
