#!/bin/sh
# Every scenario of this probe must fail on the plain Original: the shared check.
exec sh "$(dirname "$0")/../probe-tools/check_base.sh" "$(dirname "$0")"
