#!/bin/sh
# run.sh - runs the libFuzzer targets built in build-fuzz/ (tests/fuzz/README.md):
#
#   run.sh fuzz SECONDS TARGET...     fuzz each target SECONDS on its scratch
#                                     corpus build-fuzz/work/TARGET, which
#                                     persists between runs (make fuzz)
#   run.sh check SECONDS TARGET...    the same from an empty scratch corpus
#                                     (make check's fuzz-check)
#   run.sh regress 0 TARGET...        run every committed corpus input and
#                                     every tests/fuzz/regressions/TARGET file
#                                     once (make fuzz-regress)
#   run.sh merge 0 TARGET...          add to tests/fuzz/corpus/TARGET the
#                                     scratch inputs with new coverage
#                                     (make fuzz-merge)
#
# The committed corpus and regressions are only ever read, except by merge.
# A crash, leak, hang (FUZZ_TIMEOUT seconds, default 10, for one input) or
# out-of-memory (FUZZ_RSS_MB, default 2048) fails the run: the input is kept
# under build-fuzz/crashes/TARGET/ and the log's end is shown. Each fuzzing
# run prints one line: executions, executions per second, and coverage
# (libFuzzer's cov: edges and ft: features).
set -u
mode=$1 secs=$2
shift 2
B=build-fuzz
D=tests/fuzz
timeout=${FUZZ_TIMEOUT:-10}
rss=${FUZZ_RSS_MB:-2048}
status=0

dict_of() {
	case $1 in
	fuzz_ptx) echo "-dict=$D/ptx.dict" ;;
	fuzz_config | fuzz_spec | fuzz_calib | fuzz_recipe) echo "-dict=$D/ini.dict" ;;
	fuzz_merge) echo "-dict=$D/part.dict" ;;
	fuzz_plotjson) echo "-dict=$D/json.dict" ;;
	*) echo "" ;;
	esac
}

# the directories of committed inputs of a target that exist
inputs_of() {
	for d in "$D/corpus/$1" "$D/regressions/$1"; do
		[ -d "$d" ] && echo "$d"
	done
}

fail() {
	status=1
	echo "FAIL $1: $2"
	[ -f "$3" ] && tail -n 40 "$3" | sed 's/^/     | /'
}

for t in "$@"; do
	bin=$B/$t
	[ -x "$bin" ] || { echo "run.sh: $bin is not built (make fuzz-build)" >&2; exit 2; }
	mkdir -p "$B/logs" "$B/crashes/$t"
	log=$B/logs/$t.$mode.log
	opts="-timeout=$timeout -rss_limit_mb=$rss -artifact_prefix=$B/crashes/$t/"
	case $mode in
	fuzz | check)
		work=$B/work/$t
		[ "$mode" = check ] && work=$B/check/$t && rm -rf "$work"
		mkdir -p "$work"
		# shellcheck disable=SC2046
		"$bin" $opts $(dict_of "$t") -max_total_time="$secs" -print_final_stats=1 \
			"$work" $(inputs_of "$t") >"$log" 2>&1
		rc=$?
		last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
		cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
		ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
		if [ $rc -ne 0 ]; then
			fail "$t" "libFuzzer exit status $rc after ${execs:-?} execs of a ${secs}s run (input kept in $B/crashes/$t/; log $log)" "$log"
		else
			echo "ok   $t: ${secs}s, ${execs:-?} execs, ${rate:-?} exec/s, cov ${cov:-?}, ft ${ft:-?} (log $log)"
		fi
		;;
	regress)
		files=$(find $(inputs_of "$t") -type f 2>/dev/null | sort)
		n=$(echo "$files" | grep -c . || true)
		if [ "$n" -eq 0 ]; then
			echo "ok   $t: no committed inputs"
			continue
		fi
		# shellcheck disable=SC2086
		"$bin" $opts $files >"$log" 2>&1
		rc=$?
		if [ $rc -ne 0 ]; then
			which=$(sed -n 's/^Running: //p' "$log" | tail -n 1)
			fail "$t" "$which crashed (exit status $rc; log $log)" "$log"
		else
			echo "ok   $t: $n committed inputs replayed"
		fi
		;;
	merge)
		work=$B/work/$t
		[ -d "$work" ] || { echo "ok   $t: no scratch corpus to merge"; continue; }
		before=$(find "$D/corpus/$t" -type f | wc -l)
		"$bin" $opts -merge=1 "$D/corpus/$t" "$work" >"$log" 2>&1
		rc=$?
		after=$(find "$D/corpus/$t" -type f | wc -l)
		if [ $rc -ne 0 ]; then
			fail "$t" "merge failed (exit status $rc; log $log)" "$log"
		else
			echo "ok   $t: $((after - before)) inputs added to $D/corpus/$t"
		fi
		;;
	*)
		echo "run.sh: unknown mode $mode (fuzz, check, regress, merge)" >&2
		exit 2
		;;
	esac
done
exit $status
