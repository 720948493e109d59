#!/bin/bash
# A host test's `check "what" CMD && CMD2` checks CMD alone: the shell runs
# CMD2 after check has printed ok, and its failure counts nowhere.  Each
# such line is named; combine the conditions in one command instead
# ([ A -a B ], or a function).  Exits 1 if any is found.
set -u
cd "$(dirname "$0")/../.."
bad=$(grep -n -E '^[[:space:]]*check "([^"\\]|\\.)*"[^#]*[]a-z0-9)"'"'"'][[:space:]]*(&&|\|\|)' tests/host/*.sh |
	grep -v -E 'check "([^"\\]|\\.)*" +(awk|eval|bash -c|sh -c|python3) ')
[ -z "$bad" ] && exit 0
echo "checks that test only their first command (the rest runs after check):"
echo "$bad"
exit 1
