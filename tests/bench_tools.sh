# bench_tools.sh - sourced by the bench scripts (bench_simt, bench_fabric,
# bench_sweep, bench_vt, bench_overlay) from the repository root, after
# they set bench_name: the tools under test, $T (weft-trace) and $E
# (weft-estimate) from bin/ or $WEFT_BIN (make check SAN=1 sets bin-san),
# both checked to exist (exit 2 with a message if not), and $pin, the
# command that pins a process to one core (taskset -c 0) where that works,
# else empty.
BIN=${WEFT_BIN:-bin}
T=$BIN/weft-trace
E=$BIN/weft-estimate
for b in "$T" "$E"; do
	if [ ! -x "$b" ]; then
		echo "$bench_name: $b is missing; run make first" >&2
		exit 2
	fi
done
pin=""
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
	pin="taskset -c 0"
fi
