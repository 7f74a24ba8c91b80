#!/bin/sh
# tests/sample_ci.sh - do the intervals of a sampled weft-estimate cover the
# full replay? (issue: "the full-replay value lies inside the 95% interval in
# at least 95% of seeded trials"; method in docs/estimate.md.)
#
# For each case (workload at default size, configs, sample size) the full
# replay gives the true totals; then TRIALS random samples (seeds 1..TRIALS,
# fixed, so the test is deterministic) each give a 95% interval, and we count
# the trials whose interval holds the full value, for the first config's
# cycles and, with two configs, the second one's speedup against the first.
# Pass: at least 95% of the trials per figure, i.e. at least 38 of 40.
# Binomial reasoning: if the true coverage were 95%, the misses in 40
# trials are Binomial(40, 0.05) (mean 2), so 38 or more inside happens with
# probability 0.68; at 90% true coverage it happens with probability 0.22,
# at 85% with 0.05: a case passing with 38+ of 40 shows the coverage is
# not far below nominal. The fixed seeds make the result the same on every
# run (no flakiness); a change to a model or to the sampling that hurts the
# coverage moves the count and fails here.
# Random samples are warmed (the models' warm_cta) as weft-estimate does by
# default; one case is also run --no-warm and must miss, so that the check
# is seen to fail where warming is what makes the intervals honest.
# Windowed warming (--warm-window grid) is checked on the cases it covers,
# among them nn on 15 fabric cores, which needs the fill of its shared L2,
# and the delete-a-group jackknife (--ci-method jackknife) on a MIMD tile
# and on the SIMT model.
# Also: an unsampled run prints no interval; --sample-until reports its
# rounds and refuses when it would need the whole trace; --shard refuses a
# random sample.
set -u
# the tools under test: bin/, or $WEFT_BIN (make check SAN=1 sets bin-san)
B=${WEFT_BIN:-bin}
TRIALS=${TRIALS:-40}
NEED=$(( (TRIALS * 95 + 99) / 100 ))
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail=0
say() { echo "$1"; }

# column k of the total row of the first/second config, by header name
col() { # file config-index name
	awk -F, -v ci="$2" -v name="$3" 'NR==1{for(i=1;i<=NF;i++){if($i==name)k=i; if($i=="launch")l=i}; next}
		$l=="total"{n++; if(n==ci) print $k}' "$1"
}

case_() { # workload sample-size config [config2]; $X: more options, $LOW=1: expect a miss
	w=$1 n=$2 c1=$3 c2=${4:-}
	t="$D/$w.wtr"
	[ -f "$t" ] || "$B/weft-trace" run "$w" -o "$t" >/dev/null || { say "FAIL sample_ci: trace $w"; fail=1; return; }
	cfgs="-c $c1${c2:+ -c $c2}"
	# shellcheck disable=SC2086
	"$B/weft-estimate" "$t" $cfgs --format csv >"$D/full.csv" || { say "FAIL sample_ci: full $w"; fail=1; return; }
	fc=$(col "$D/full.csv" 1 cycles) fs=""
	[ -n "$c2" ] && fs=$(col "$D/full.csv" 2 speedup)
	fc2=""
	[ -n "$c2" ] && fc2=$(col "$D/full.csv" 2 cycles)
	inc=0 ins=0 inc2=0 s=1
	while [ $s -le "$TRIALS" ]; do
		# shellcheck disable=SC2086
		"$B/weft-estimate" "$t" $cfgs --format csv --sample "random:$n:$s" ${X:-} >"$D/s.csv" ||
			{ say "FAIL sample_ci: $w seed $s"; fail=1; return; }
		lo=$(col "$D/s.csv" 1 cycles_low) hi=$(col "$D/s.csv" 1 cycles_high)
		inc=$((inc + $(awk -v f="$fc" -v a="$lo" -v b="$hi" 'BEGIN{print (a!="" && f>=a+0 && f<=b+0) ? 1 : 0}')))
		if [ -n "$c2" ]; then
			lo=$(col "$D/s.csv" 2 speedup_low) hi=$(col "$D/s.csv" 2 speedup_high)
			ins=$((ins + $(awk -v f="$fs" -v a="$lo" -v b="$hi" 'BEGIN{print (a!="" && f>=a+0 && f<=b+0) ? 1 : 0}')))
			lo=$(col "$D/s.csv" 2 cycles_low) hi=$(col "$D/s.csv" 2 cycles_high)
			inc2=$((inc2 + $(awk -v f="$fc2" -v a="$lo" -v b="$hi" 'BEGIN{print (a!="" && f>=a+0 && f<=b+0) ? 1 : 0}')))
		fi
		s=$((s + 1))
	done
	r="$w random:$n${X:+ $X}: $c1 cycles $inc/$TRIALS inside"
	[ -n "$c2" ] && r="$r, $c2 cycles $inc2/$TRIALS, speedup $ins/$TRIALS inside"
	if [ "${LOW:-0}" = 1 ]; then
		# the check can fail: without warming this case's estimate is
		# biased (cold caches) and its intervals miss the full value
		if [ "$inc" -lt "$NEED" ]; then
			say "ok   sample_ci: $r (below $NEED, as expected: a known bias)"
		else
			say "FAIL sample_ci: $r (expected below $NEED: a known bias; if it was fixed, move the case)"; fail=1
		fi
		return
	fi
	if [ "$inc" -lt "$NEED" ] || { [ -n "$c2" ] && { [ "$ins" -lt "$NEED" ] || [ "$inc2" -lt "$NEED" ]; }; }; then
		say "FAIL sample_ci: $r (need $NEED)"
		fail=1
	else
		say "ok   sample_ci: $r"
	fi
}

case_ hotspot 32 fermi-sm
case_ nn 64 fermi-sm
case_ backprop 64 fermi-sm sgmf-core
# functional warming (docs/estimate.md): the fabric models' CTAs reuse their
# neighbours' lines (hotspot's halo rows), the vt tile's strips cross CTA
# boundaries (nn: 256 threads per CTA, 25-uT strips); sampled alone they were
# covered in 0 of 40 trials
case_ hotspot 32 sgmf-core dmt-cgra
case_ nn 64 configs/maven/vt-c4v1r256+bi.ini
# two launches sampled with one seed read the same CTAs, so their errors
# move together: the groups are replicates across launches (sample_ci.h);
# with the launches taken apart this case was covered in 33 of 40 trials
case_ hotspot 32 configs/maven/vt-c4v1r256+bi.ini
X=--no-warm LOW=1 case_ hotspot 32 sgmf-core
# windowed warming (--warm-window grid: the CTAs back to each sampled one's
# earliest grid neighbour, and the one after): hotspot's halo rows (12 x 12
# grid: 13 CTAs back) and nn's strips (1-D grid: 1 back, 1 after, strips
# aligned as in a full replay) are covered as with every CTA warmed; on 15
# cores nn's shared write-back L2 is in steady state only after the fill
# (fabric_warm.c: the CTAs before the first window warmed until every
# cache has turned over); without it the windows' L2 held clean lines and
# this case was covered in 0 of 40 trials (bias -19.5%)
X="--warm-window grid" case_ hotspot 32 sgmf-core dmt-cgra
X="--warm-window grid" case_ nn 64 configs/maven/vt-c4v1r256+bi.ini
X="--warm-window grid" case_ nn 64 sgmf-15core
# a MIMD tile's sampled core time: every CTA of nn costs the same, so the
# intervals are nearly zero-wide, and the full replay's miss on the
# parameter line, paid once by the launch's first thread, must be counted
# once and not expanded with its slot (vt_replay.c, mimd_sampled_core);
# expanded or left out it was covered in 1 of 40 trials (51 cycles low)
X="--warm-window grid" case_ nn 64 configs/maven/mimd-c4r32.ini
# post-stratified by thread index: with 8 uT slots a core, nn's slots of
# 12504 threads start on a cache line or half-way into one, so they hold
# different mixes of the threads that miss (one in 16); at one rate for
# all tids the busiest slot was 24 cycles low in every seed and the
# intervals, from groups that agree, zero-wide: 1 of 40 inside
X="--warm-window grid" case_ nn 64 configs/maven/mimd-c4r256.ini
# loads every CTA repeats, by the launch's grid: backprop's delta[j] has
# blockIdx.y in its address, which a 1-row grid makes 0, so CTA 0 alone
# misses its lines; classified from the program alone they were not paid
# once and the estimate was 100 cycles low with zero-wide intervals: 3 of
# 40 inside (models/vt/vt_class.c, weft_vt_prog_launch_loads)
X="--warm-window grid" case_ backprop 64 configs/maven/mimd-c4r32.ini
# post-stratified by the CTA's place in the grid and tid, with each
# core's departure from those rates added by a composite weight (bfs's
# cores hold different shares of each level's frontier): the tile's rates
# alone put the busiest core low, 32 of 40 inside (docs/estimate.md)
X="--warm-window grid" case_ bfs 32 configs/maven/mimd-c4r32.ini
# the MIMD tile on 8 slots a core: random groups of 3 CTAs a launch
# understate its spread (27 of 40 inside), the jackknife's replicates do not
# (docs/estimate.md "Replicates")
X="--warm-window grid --ci-method jackknife" case_ bfs 32 configs/maven/mimd-c4r256.ini
# the SIMT model's steady pace (docs/estimate.md "The SIMT model's start
# and drain"): the jackknife measures the sampling error alone, so it holds
# the full replay only where the estimate is not biased; scaled by N / n,
# which counted the sample's start and drain N / n times, 22 of 40 inside
X="--ci-method jackknife" case_ hotspot 32 fermi-sm

# the modes around it
t="$D/hotspot.wtr"
if "$B/weft-estimate" "$t" -c fermi-sm | grep -q '^interval'; then
	say "FAIL sample_ci: an unsampled run prints an interval"; fail=1
else say "ok   sample_ci: an unsampled run prints no interval"; fi
out=$("$B/weft-estimate" "$D/backprop.wtr" -c fermi-sm --sample-until 40% 2>&1)
if echo "$out" | grep -q 'sampled until +-40% in [0-9]* round'; then
	say "ok   sample_ci: --sample-until reports its rounds"
else say "FAIL sample_ci: --sample-until: $out"; fail=1; fi
"$B/weft-trace" run sgemm --size small -o "$D/sgemm.wtr" >/dev/null
out=$("$B/weft-estimate" "$D/sgemm.wtr" -c fermi-sm --sample-until 2% 2>&1); rc=$?
if [ $rc = 2 ] && echo "$out" | grep -q 'the whole trace is needed'; then
	say "ok   sample_ci: --sample-until refuses when the whole trace is needed"
else say "FAIL sample_ci: --sample-until on a 1-CTA trace: rc $rc: $out"; fail=1; fi
out=$("$B/weft-estimate" "$t" -c fermi-sm --sample random:8:1 --shard 0/2 -o "$D/p" 2>&1); rc=$?
if [ $rc = 2 ] && echo "$out" | grep -q -- '--shard with a random sample'; then
	say "ok   sample_ci: --shard refuses a random sample"
else say "FAIL sample_ci: --shard with random: rc $rc: $out"; fail=1; fi
# every format carries the intervals
b="$D/backprop.wtr"
fmt_ok() { # format pattern what
	if "$B/weft-estimate" "$b" -c fermi-sm -c sgmf-core --sample random:64:1 --format "$1" | grep -q -- "$2"; then
		say "ok   sample_ci: --format $1 has $3"
	else say "FAIL sample_ci: --format $1 lacks $3"; fail=1; fi
}
fmt_ok table '^sgmf-core *speedup' "the interval rows"
fmt_ok csv 'speedup_low,speedup_high' "the interval columns"
fmt_ok json '"interval": {"confidence": 0.95' "the interval object"
fmt_ok latex '[0-9] \$\\pm\$ [0-9]' "the half-widths"
fmt_ok markdown '95% intervals' "the intervals' provenance"
exit $fail
