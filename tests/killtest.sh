#!/bin/sh
# killtest.sh - no partial files (`make kill-tests`, in `make check`): kills
# a trace writer (`weft-trace run cfd --size default -o`, about 1.6 MB
# written in chunks over half a second) and a report writer (`weft-estimate
# ... --format json -o`) with SIGKILL at pseudo-random points of their run
# (fixed seed: the same fractions of the measured run time each time), half
# of them into an empty folder, half over an older file of the same name.
# One more kill per writer and folder comes the moment the new file shows
# under its name (the shell polls for it), which is as close to the commit
# as a script can aim. After each kill the folder must hold nothing, or the
# name holding either the older file or a complete new one (byte-identical
# to an uninterrupted run, and `weft-trace verify` passes for a trace), and
# nothing else.
#
# The one documented exception (common/file.h): a kill between the link
# and the rename of a replacing write leaves a complete copy under
# NAME.tmp.weft-XXXXXX; one is accepted only if complete, and the next
# write of NAME must remove it. A partial temporary file fails the test:
# that happens only on a filesystem without O_TMPFILE (then set TMPDIR to
# another one). POSIX sh, coreutils (date +%N, fractional sleep) and awk.
#
# usage: sh tests/killtest.sh [POINTS]   (default 4 per writer)
#        WEFT_KILL_SEED=N changes the points.

cd "$(dirname "$0")/.." || exit 3
T=${WEFT_BIN:-bin}/weft-trace
E=${WEFT_BIN:-bin}/weft-estimate
CFG=configs/fermi-sm.ini
OLD_CFG=configs/tesla-sm.ini
points=${1:-4}
seed=${WEFT_KILL_SEED:-1729}
for b in "$T" "$E"; do
	if [ ! -x "$b" ]; then
		echo "kill tests: $b is missing; run make first" >&2
		exit 2
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-kill.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
failed=0
ok() { pass=$((pass + 1)); echo "ok   kill: $1"; }
bad() { failed=$((failed + 1)); echo "FAIL kill: $1: $2"; }

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# The writers, each writing to $1 (run_case starts the same commands itself).
write_trace() { "$T" run cfd --size default -o "$1"; }
write_old_trace() { "$T" run vvadd --size default -o "$1"; }
write_report() { "$E" "$tmp/ref.wtr" -c "$CFG" --format json -o "$1"; }
write_old_report() { "$E" "$tmp/ref.wtr" -c "$OLD_CFG" --format json -o "$1"; }

# Reference outputs of uninterrupted runs, and their run times.
t0=$(now_ms)
write_trace "$tmp/ref.wtr" >/dev/null 2>&1 || { echo "kill tests: the reference trace run failed" >&2; exit 3; }
t1=$(now_ms)
write_report "$tmp/ref.json" >/dev/null 2>&1 || { echo "kill tests: the reference report run failed" >&2; exit 3; }
t2=$(now_ms)
write_old_trace "$tmp/old.wtr" >/dev/null 2>&1 && write_old_report "$tmp/old.json" >/dev/null 2>&1 ||
	{ echo "kill tests: the older-file runs failed" >&2; exit 3; }
trace_ms=$((t1 - t0))
report_ms=$((t2 - t1))
echo "kill: uninterrupted runs: trace $trace_ms ms ($(wc -c <"$tmp/ref.wtr") bytes), report $report_ms ms"

# check DIR NAME REF OLD KIND WHAT: the folder after a kill (above).
# Prints what was found; 0 or 1.
check() {
	dir=$1 name=$2 ref=$3 old=$4 kind=$5
	found="nothing"
	for f in "$dir"/* "$dir"/.[!.]*; do
		[ -e "$f" ] || continue
		b=${f##*/}
		case $b in
		"$name")
			if cmp -s "$f" "$ref"; then
				found="the complete new file"
			elif [ -n "$old" ] && cmp -s "$f" "$old"; then
				found="the older file"
			else
				echo "$name is neither the older file nor the complete new one ($(wc -c <"$f") bytes)"
				return 1
			fi
			if [ "$kind" = trace ] && ! "$T" verify "$f" >/dev/null 2>&1; then
				echo "weft-trace verify rejects $name"
				return 1
			fi ;;
		"$name".tmp.weft-??????)
			if ! cmp -s "$f" "$ref"; then
				echo "a partial temporary file $b is left (a filesystem without O_TMPFILE? try another TMPDIR)"
				return 1
			fi
			;;
		*)
			echo "unexpected $b left in the folder"
			return 1 ;;
		esac
	done
	echo "$found"
	return 0
}

# run_case KIND N DELAY REPLACE: one writer killed DELAY seconds after its
# start, or with DELAY "appear", as soon as the new file is at its name.
run_case() {
	kind=$1 i=$2 delay=$3 replace=$4
	dir=$tmp/$kind$i
	mkdir "$dir" || exit 3
	if [ "$kind" = trace ]; then
		name=k.wtr ref=$tmp/ref.wtr old=$tmp/old.wtr
	else
		name=k.json ref=$tmp/ref.json old=$tmp/old.json
	fi
	if [ "$replace" = 1 ]; then
		cp "$old" "$dir/$name" && ln "$dir/$name" "$tmp/was$i" || exit 3
		over="over an older file"
	else
		old="" over="into an empty folder"
	fi
	# the tool itself in the background, not a function: $! must be the
	# writer's pid (a backgrounded function is a subshell that the kill
	# would stop while the tool it started goes on writing, and the check
	# below would then race with its rename)
	if [ "$kind" = trace ]; then
		"$T" run cfd --size default -o "$dir/$name" >/dev/null 2>&1 &
	else
		"$E" "$tmp/ref.wtr" -c "$CFG" --format json -o "$dir/$name" >/dev/null 2>&1 &
	fi
	pid=$!
	if [ "$delay" = appear ]; then
		# busy until the name shows the new file (or the writer is gone)
		while { [ ! -e "$dir/$name" ] || [ "$dir/$name" -ef "$tmp/was$i" ]; } &&
			kill -0 "$pid" 2>/dev/null; do :; done
		when="the moment it appeared"
	else
		sleep "$delay"
		when="at ${delay}s"
	fi
	kill -9 "$pid" 2>/dev/null
	{ wait "$pid"; } 2>/dev/null
	rc=$?
	rm -f "$tmp/was$i"
	if [ "$rc" -eq 137 ]; then how="killed"; else how="finished first, exit $rc"; fi
	leftover=""
	if ! res=$(check "$dir" "$name" "$ref" "$old" "$kind"); then
		bad "$kind $over, SIGKILL $when" "$res"
		return
	fi
	# check ran in a subshell: find the leftover again
	for f in "$dir/$name".tmp.weft-??????; do [ -e "$f" ] && leftover=${f##*/}; done
	if [ -n "$leftover" ]; then
		"write_$kind" "$dir/$name" >/dev/null 2>&1
		if [ "$(ls -A "$dir")" != "$name" ]; then
			bad "$kind $over, SIGKILL $when" "the next write left $(ls -A "$dir" | tr '\n' ' ')beside $name"
			return
		fi
		res="$res, and a complete $leftover that the next write removed"
	fi
	ok "$kind $over, SIGKILL $when ($how): $res"
	rm -rf "$dir"
}

# The kill points: fractions of the run time up to 1.2 (a kill after the
# end finds a finished run), from awk's generator with a fixed seed.
delays() {
	awk -v seed="$seed" -v n="$points" -v ms="$1" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++) printf "%.3f\n", rand() * 1.2 * ms / 1000
	}'
}

i=0
for d in $(delays "$trace_ms") appear appear; do
	run_case trace "$i" "$d" $((i % 2))
	i=$((i + 1))
done
seed=$((seed + 1))
i=0
for d in $(delays "$report_ms") appear appear; do
	run_case report "$i" "$d" $((i % 2))
	i=$((i + 1))
done

echo "kill tests: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
