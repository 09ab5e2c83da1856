#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tests of scripts/check-mutants' verdicts, without a kernel: a small
# tree whose "kernel" is a file naming the test results that a stub
# scripts/run prints, and mutants that change those results.  Each case
# runs check-mutants on one mutant and checks its verdict line.
#
#   sh check-mutants.sh PATH/TO/scripts
set -eu

src=$(cd "${1:?usage: check-mutants.sh PATH/TO/scripts}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=scripts/tap.sh
. "$(dirname "$0")/../tap.sh"

# The project: check-mutants and lib.sh as they are, stubs for the build
# steps and for scripts/run, an expected list, and the "tree".
root=$tmp/p
mkdir -p "$root/scripts" "$root/tests/expected" "$root/tests/mutants" "$root/build/linux"
cp "$src/check-mutants" "$src/lib.sh" "$root/scripts/"
for s in selftests initramfs; do
	printf '#!/bin/sh\nexit 0\n' >"$root/scripts/$s"
done
# The kernel build "builds" the tree's results.c into KOUT (the debug
# kernel: results-debug.c); the module build, when the project's
# drivers/m/results is not empty, replaces them with it.
# shellcheck disable=SC2016 # expanded by the stub, not here
printf '#!/bin/sh\nmkdir -p "$KOUT" && cp "$LINUX/results${2:+-$2}.c" "$KOUT/results"\n' >"$root/scripts/kernel"
# shellcheck disable=SC2016 # expanded by the stub, not here
printf '#!/bin/sh\n[ ! -s "$MODULES_TOP/drivers/m/results" ] || cp "$MODULES_TOP/drivers/m/results" "$KOUT/results"\n' >"$root/scripts/modules"
# scripts/run: the results with the arch, and a status as the real one
# gives it; RUN_TESTS, when set, keeps the kselftests it names.
cat >"$root/scripts/run" <<'EOT'
#!/bin/sh
arch=$1
rc=0
while IFS= read -r line; do
	kind=${line%% *}
	rest=${line#* }
	case "$kind" in FAIL | MISMATCH | MISSING) rc=1 ;; esac
	echo "$kind $arch $rest"
done <"$KOUT/results"
echo "$arch: done"
exit "$rc"
EOT
chmod +x "$root/scripts/"*
cat >"$root/tests/expected/x86_64.txt" <<'EOT'
PASS kselftest: t: prog
PASS kselftest: t: prog: case.a
PASS kselftest: t: prog: case.b
PASS kselftest: t: prog: case.c
SKIP kselftest: t: prog: case.d # needs the debug kernel
EOT
good='PASS kselftest: t: prog
PASS kselftest: t: prog: case.a
PASS kselftest: t: prog: case.b
PASS kselftest: t: prog: case.c'
git -C "$root/build/linux" init -q
printf '%s\nSKIP kselftest: t: prog: case.d # needs the debug kernel\n' "$good" >"$root/build/linux/results.c"
printf '%s\nPASS kselftest: t: prog: case.d\n' "$good" >"$root/build/linux/results-debug.c"
git -C "$root/build/linux" add results.c results-debug.c
# The project's own module sources, for "Mutant-tree: project"
mkdir -p "$root/drivers/m"
: >"$root/drivers/m/results"
git -C "$root" init -q
git -C "$root" add drivers
git -C "$root/build/linux" -c user.name=t -c user.email=t@t commit -q -m base

# mutant NAME EXPECT... : tests/mutants/NAME.patch turning the tree's
# results file ($file of $tree, and with $headers) into stdin, expecting
# the tests named
file=results.c
tree=$root/build/linux
headers=
mutant() {
	name=$1
	shift
	git -C "$tree" diff --quiet
	cat >"$tree/$file"
	{
		echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
		echo "Subject: [PATCH] MUTANT: $name"
		echo
		echo "Mutant-arch: x86_64"
		[ -z "$headers" ] || echo "$headers"
		for e in "$@"; do
			echo "Mutant-expect: $e"
		done
		echo "---"
		git -C "$tree" diff
	} >"$root/tests/mutants/$name.patch"
	git -C "$tree" checkout -q "$file"
}

# verdict NAME WANT [OPTIONS...]: the caught column of NAME's row (on
# $slot)
slot=x86_64
verdict() {
	name=$1
	want=$2
	shift 2
	rc=0
	(cd "$root" && scripts/check-mutants "$@" "$name") >"$tmp/out" 2>&1 || rc=$?
	got=$(awk -v m="$name" -v s="$slot" '$1 == m && $2 == s { print $3 }' "$tmp/out")
	if [ "$got" = "$want" ]; then
		ok "$name${*:+ ($*)}: $want (exit $rc)"
	else
		fail "$name${*:+ ($*)}: want '$want', got '$got' (exit $rc)"
		sed 's/^/# /' "$tmp/out"
	fi
}

echo "$good" | sed 's/^PASS \(.*case.a\)$/FAIL \1/' |
	mutant caught "kselftest: t: prog: case.a"
verdict caught yes
verdict caught yes --targeted

echo "$good" | sed 's/^PASS \(.*case.b\)$/FAIL \1/' |
	mutant elsewhere "kselftest: t: prog: case.a"
verdict elsewhere no

echo "$good" | sed 's/^PASS \(kselftest: t: prog\)$/FAIL \1 (exit=1)/' |
	mutant program "kselftest: t: prog"
verdict program yes

{
	echo "$good" | sed 's/^PASS \(.*case.a\)$/SKIP \1 # no feature/'
	echo "MISMATCH kselftest: t: prog: case.a: expected PASS, got SKIP (no feature)"
} | mutant skipped "kselftest: t: prog: case.a"
verdict skipped no

echo "$good" | grep -v 'case.a$' | mutant missing "kselftest: t: prog: case.a"
verdict missing yes --targeted

# "Mutant-expect: ARCH: ID" holds on ARCH only: another arch's id is not
# looked up, nor asked to fail, here.
echo "$good" | sed 's/^PASS \(.*case.a\)$/FAIL \1/' |
	mutant per-arch "x86_64: kselftest: t: prog: case.a" "arm64: kselftest: t: prog: case.z"
verdict per-arch yes
echo "$good" | sed 's/^PASS \(.*case.b\)$/FAIL \1/' |
	mutant per-arch-elsewhere "x86_64: kselftest: t: prog: case.a" "arm64: kselftest: t: prog: case.b"
verdict per-arch-elsewhere no

# stops DESC PATTERN ARGS...: check-mutants ARGS must stop the harness
# (exit 2), saying PATTERN
stops() {
	desc=$1
	pattern=$2
	shift 2
	rc=0
	(cd "$root" && scripts/check-mutants "$@") >"$tmp/out" 2>&1 || rc=$?
	if [ "$rc" -eq 2 ] && grep -q "$pattern" "$tmp/out"; then
		ok "$desc"
	else
		fail "$desc (exit $rc)"
		sed 's/^/# /' "$tmp/out"
	fi
}

# A mutant of the project's modules: the kernel tree stays as it is.
file=drivers/m/results tree=$root headers="Mutant-tree: project"
echo "$good" | sed 's/^PASS \(.*case.b\)$/FAIL \1/' |
	mutant module "kselftest: t: prog: case.b"
verdict module yes
file=results.c tree=$root/build/linux headers=''

# A mutant of the debug kernel may name a test that skips on the VM
# kernel; its control is a debug kernel too, which passes it (built as
# the VM kernel, the run would skip it: not caught).
headers="Mutant-kernel: debug" file=results-debug.c slot=x86_64-debug
echo "$good" | sed 's/^PASS \(.*case.a\)$/FAIL \1/; $a\
FAIL kselftest: t: prog: case.d' |
	mutant debug "kselftest: t: prog: case.d"
verdict debug yes
headers='' file=results.c slot=x86_64

# --quick builds in a copy of build/ARCH from the patched tree itself,
# and puts the tree back as it was, mtime included.
mkdir -p "$root/build/x86_64"
: >"$root/build/x86_64/.config"
echo "include $root/build/linux/Makefile" >"$root/build/x86_64/Makefile"
mtime() { stat -c %Y "$root/build/linux/results.c"; }
touch -d @1000000000 "$root/build/linux/results.c"
echo "$good" | sed 's/^PASS \(.*case.a\)$/FAIL \1/' |
	mutant quick "kselftest: t: prog: case.a"
touch -d @1000000000 "$root/build/linux/results.c"
verdict quick yes --quick
if git -C "$root/build/linux" diff --quiet && [ "$(mtime)" = 1000000000 ]; then
	ok "--quick puts the tree back, mtime included"
else
	fail "--quick left the tree changed: $(git -C "$root/build/linux" diff --stat), mtime $(mtime)"
fi
# A run that was interrupted left its mutant in the tree: the next one
# puts it back before it starts.
saved=$root/build/mutants/quick-saved
mkdir -p "$saved/tree"
cp -p "$root/build/linux/results.c" "$saved/tree/results.c"
echo results.c >"$saved/files"
echo "FAIL kselftest: t: prog" >"$root/build/linux/results.c"
git -C "$root/build/linux" rev-parse HEAD >"$saved/head"
git -C "$root/build/linux" diff >"$saved/mutant.patch"
verdict quick yes --quick
if git -C "$root/build/linux" diff --quiet && ! [ -e "$saved" ]; then
	ok "--quick puts back what an interrupted run left"
else
	fail "--quick did not put back what an interrupted run left"
fi

# What an interrupted run left is not put back over a tree that moved on
# (the mutant is no longer applied as it was): the run stops, the tree
# is left alone.
mkdir -p "$saved/tree"
cp -p "$root/build/linux/results.c" "$saved/tree/results.c"
echo results.c >"$saved/files"
git -C "$root/build/linux" rev-parse HEAD >"$saved/head"
echo "FAIL kselftest: t: prog" >"$root/build/linux/results.c"
git -C "$root/build/linux" diff >"$saved/mutant.patch"
echo "FAIL kselftest: t: prog: case.b" >"$root/build/linux/results.c"
rc=0
(cd "$root" && scripts/check-mutants --quick quick) >"$tmp/out" 2>&1 || rc=$?
if [ "$rc" = 2 ] && [ "$(cat "$root/build/linux/results.c")" = "FAIL kselftest: t: prog: case.b" ]; then
	ok "--quick leaves a tree that moved on alone (exit 2)"
else
	fail "--quick put back an interrupted run's files over a tree that moved on (exit $rc)"
	sed 's/^/# /' "$tmp/out"
fi
rm -rf "$saved"
git -C "$root/build/linux" checkout -q results.c

# --quick takes mutants of .c files only; --list names a mutant that
# does not apply.
echo "$good" | sed 's/^PASS \(.*case.a\)$/FAIL \1/' >"$root/build/linux/results-debug.c"
git -C "$root/build/linux" diff >"$tmp/both"
git -C "$root/build/linux" checkout -q results-debug.c
{
	sed -n '1,/^---$/p' "$root/tests/mutants/quick.patch"
	cat "$tmp/both"
	printf 'diff --git a/Makefile b/Makefile\nnew file mode 100644\n--- /dev/null\n+++ b/Makefile\n@@ -0,0 +1 @@\n+all:\n'
} >"$root/tests/mutants/header.patch"
stops "--quick refuses a mutant of more than .c files" "changes more than .c files" --quick header
sed 's/^-PASS kselftest: t: prog: case.a$/-PASS kselftest: t: prog: case.z/' "$root/tests/mutants/quick.patch" >"$root/tests/mutants/stale.patch"
stops "--list names a mutant that does not apply" "stale DOES NOT APPLY" --list stale
rm -f "$root/tests/mutants/header.patch" "$root/tests/mutants/stale.patch"

# A test that fails without the mutant cannot show it.
echo "$good" | sed 's/^PASS \(.*case.c\)$/FAIL \1/' >"$root/build/linux/results.c"
git -C "$root/build/linux" -c user.name=t -c user.email=t@t commit -q -a -m "c fails"
echo "$good" | sed 's/^PASS \(.*case.c\)$/FAIL \1/; s/^PASS \(.*case.a\)$/FAIL \1/' |
	mutant flaky "kselftest: t: prog: case.c"
verdict flaky ERROR

# An expected id that is no passing test of the list stops the harness.
echo "$good" | sed 's/^PASS \(.*case.a\)$/FAIL \1/' |
	mutant typo "kselftest: t: prog: case.z"
stops "an unknown Mutant-expect id stops the harness" \
	"Mutant-expect 'kselftest: t: prog: case.z' is not a test that passes" --list typo

tap_end check-mutants
