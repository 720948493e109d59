# make install puts the binary, the man page, the bash completion, the job files and a fio link (libexec/iodig/fio, for harnesses) under DESTDIR/PREFIX; the man page renders without warnings and names every option of every subcommand and every job option; the completion is valid bash and completes; make uninstall removes every file it installed.
source tests/host/lib.sh
command -v make >/dev/null || skip "make not installed"
command -v groff >/dev/null || skip "groff not installed"
[ -x "$OUT/iodig" ] || skip "build $OUT/iodig first"
DEST=$TMP/dest
install_make() { # install_make TARGET: make TARGET into $DEST with PREFIX=/usr
	make -s --no-print-directory OUT="$OUT" DESTDIR="$DEST" PREFIX=/usr "$1" \
		>"$TMP/make.log" 2>&1
}

install_make install
rc=$?
check "make install works (rc $rc): $(tail -3 "$TMP/make.log")" [ $rc -eq 0 ]
want=(usr/bin/iodig usr/share/man/man1/iodig.1 usr/share/bash-completion/completions/iodig
      usr/libexec/iodig/fio)
for f in jobs/*.fio; do want+=("usr/share/iodig/jobs/${f#jobs/}"); done
got=$(cd "$DEST" && find . -type f -o -type l | sed 's|^\./||' | sort)
check "installed exactly: ${want[*]} (got: $(echo $got))" \
	[ "$got" = "$(printf '%s\n' "${want[@]}" | sort)" ]
check "the binary is executable and runs" \
	grep -q "^iodig " <("$DEST/usr/bin/iodig" --version)
# The fio link points at the installed binary by its final path (DESTDIR is
# only a staging root), and answers as fio when called by that name.
check "libexec/iodig/fio links to /usr/bin/iodig ($(readlink "$DEST/usr/libexec/iodig/fio"))" \
	[ "$(readlink "$DEST/usr/libexec/iodig/fio")" = /usr/bin/iodig ]
ln -s "$DEST/usr/bin/iodig" "$TMP/fio"
check "called as fio, it answers fio's --version form ($("$TMP/fio" --version))" \
	grep -q "^fio-3" <("$TMP/fio" --version)
check "no fio in the binary folder, so the real fio is not shadowed" [ ! -e "$DEST/usr/bin/fio" ]
check "job files are the tree's" cmp -s jobs/default.fio "$DEST/usr/share/iodig/jobs/default.fio"

# The man page: no groff warnings, and every option by name.
MAN=$DEST/usr/share/man/man1/iodig.1
groff -man -ww -z "$MAN" 2>"$TMP/warn"
check "groff renders the man page without warnings: $(head -3 "$TMP/warn")" [ ! -s "$TMP/warn" ]
if command -v man >/dev/null; then
	MANWIDTH=80 man --warnings -l "$MAN" 2>"$TMP/warn" >/dev/null
	check "man -l renders without warnings: $(head -3 "$TMP/warn")" [ ! -s "$TMP/warn" ]
fi
groff -man -Tascii -P-cbou "$MAN" 2>/dev/null >"$TMP/man.txt"
for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS "JOB OPTIONS" ENVIRONMENT "EXIT STATUS" \
	FILES EXAMPLES; do
	check "man page has $s" grep -q "^$s" "$TMP/man.txt"
done
for v in IODIG_DISABLE IODIG_BTF IODIG_DEBUG IODIG_RUNS_DIR; do
	check "man page explains $v" grep -q "$v" "$TMP/man.txt"
done
# every option --help lists (the table's), and every job option
opts=$("$OUT/iodig" --help | sed -nE 's/^  --([a-z-]+).*/\1/p' | sort -u)
jobopts=$("$OUT/iodig" run --help | sed -nE 's/^  ([a-z_]+)=.*/\1/p')
check "--help lists options ($(echo $opts | wc -w)) and job options ($(echo $jobopts | wc -w))" \
	[ "$(echo $opts | wc -w)" -gt 25 ] && [ "$(echo $jobopts | wc -w)" -gt 20 ]
for o in $opts $jobopts; do
	grep -Eq -- "(^|[^a-z_-])--$o([^a-z_-]|\$)" "$TMP/man.txt" || fail "man page does not name --$o"
done
for c in run probe diff help version; do
	check "man page names iodig $c" grep -q "iodig $c" "$TMP/man.txt"
done

# The completion: valid bash, completes a subcommand's option and a value.
COMP=$DEST/usr/share/bash-completion/completions/iodig
check "completion is valid bash" bash -n "$COMP"
complete_words() { # complete_words WORD...: what the completion offers for the last
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_iodig 2>/dev/null; echo "${COMPREPLY[*]}"' _ "$COMP" "$@"
}
check "iodig diff --fo completes to --format" [ "$(complete_words iodig diff --fo)" = "--format" ]
check "iodig diff --format j completes to json" [ "$(complete_words iodig diff --format j)" = json ]
check "iodig run --output-format=js offers json and json+" \
	[ "$(complete_words iodig run --output-format = js)" = "json json+" ]
check "iodig pr completes to probe" [ "$(complete_words iodig pr)" = probe ]
check "iodig run --ioeng offers the job option" [ "$(complete_words iodig run --ioeng)" = "--ioengine=" ]

install_make uninstall
rc=$?
check "make uninstall works (rc $rc): $(tail -3 "$TMP/make.log")" [ $rc -eq 0 ]
left=$(find "$DEST" -type f -o -type l)
check "make uninstall leaves no file (left: $left)" [ -z "$left" ]
check "make uninstall removes iodig's own folders" [ ! -e "$DEST/usr/share/iodig" -a ! -e "$DEST/usr/libexec/iodig" ]
done_testing
