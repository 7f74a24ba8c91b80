#!/bin/sh
# run.sh - CLI tests for bin/weft-trace and bin/weft-estimate (`make cli-tests`): golden output for
# help and list, and every documented error with its exit code and the key
# phrase of its message. POSIX sh and coreutils only.
#
# WEFT_UPDATE_GOLDEN=1 sh tests/cli/run.sh   rewrites tests/cli/golden/*
# (then review the diff before committing).

cd "$(dirname "$0")/../.." || exit 3
# the tools under test: bin/, or $WEFT_BIN (make check SAN=1 sets bin-san)
BIN=${WEFT_BIN:-bin}
T=$BIN/weft-trace
F=tests/fixtures
G=tests/cli/golden
if [ ! -x "$T" ]; then
	echo "cli tests: $T is missing; run make first" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-cli.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
PREFIX=""
. tests/cli/lib.sh

# golden NAME FILE ARGS...: stdout of weft-trace ARGS must equal golden FILE
# and the exit status must be 0.
golden() {
	name=$1 file=$G/$2
	shift 2
	"$T" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "${WEFT_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$tmp/out" "$file"
	fi
	if [ "$rc" -ne 0 ]; then
		bad "$name" "exit status $rc, expected 0"
	elif [ ! -f "$file" ]; then
		bad "$name" "no golden file $file (WEFT_UPDATE_GOLDEN=1 creates it)"
	elif ! diff -u "$file" "$tmp/out" >"$tmp/diff"; then
		cp "$tmp/diff" "$tmp/out"
		: >"$tmp/err"
		bad "$name" "output differs from $file"
	else
		ok "$name"
	fi
}

# ---- help, version, list -------------------------------------------------
golden "help" help.txt --help
golden "help run" run-help.txt run --help
golden "help list" list-help.txt list --help
golden "help command" run-help.txt help run
golden "list" list.txt list
expect "version" 0 "weft-trace " --version
if "$T" list | awk 'NF < 2 { bad = 1 } END { exit bad }'; then ok "list lines: name + description"
else : >"$tmp/out"; : >"$tmp/err"; bad "list lines" "a line without a description"; fi

# ---- usage errors (exit 2) -----------------------------------------------
expect "no command" 2 "usage: weft-trace"
expect "unknown command" 2 "unknown command \`frob\`" frob
expect "unknown workload" 2 "unknown workload \`nosuch\`" run nosuch
expect "unknown workload names the closest" 2 \
	"unknown workload \`sgem\`; \`weft-trace list\` shows the bundled ones (or use --spec FILE.ini for your own kernel); did you mean \`sgemm\` or \`sgemm_shader\`?" \
	run sgem
expect "unknown workload names equally close ones" 2 "did you mean \`micro_fma_chain\` or \`micro_fma_hidden\`?" \
	run micro_fma
if "$T" run nosuch 2>&1 | grep -q "did you mean"; then
	: >"$tmp/out"; : >"$tmp/err"; bad "unknown workload close to none" "suggests one anyway"
else ok "unknown workload close to none: no suggestion"; fi
expect "bad --size" 2 "bad --size \`huge\` (small, default or large)" run vvadd --size huge
expect "--size without value" 2 "--size needs a value" run vvadd --size
expect "unknown option" 2 "unknown option \`--verfy\`" run vvadd --verfy
expect "run without workload" 2 "which workload?" run
expect "bad --max-thread-insts" 2 "bad --max-thread-insts \`lots\`" run vvadd --max-thread-insts lots
expect "--verify with --spec" 2 "--verify applies to bundled workloads" \
	run --spec $F/spec/saxpy.ini --verify
expect "help for an unknown command" 2 "help: unknown command \`frob\`" help frob
expect "list takes no arguments" 2 "unexpected argument \`x\`" list x

# ---- launch spec errors (exit 2, file:line) -----------------------------
expect "missing spec file" 2 "cannot open spec file $F/cli/nope.ini: No such file" \
	run --spec $F/cli/nope.ini
expect "spec: wrong argument count" 2 \
	"$F/cli/arg_count.ini:17: kernel \`saxpy\` takes 4 parameters but [args] gives 3" \
	run --spec $F/cli/arg_count.ini
expect "spec: wrong argument type" 2 \
	"$F/cli/arg_type.ini:15: argument 1 \`n\` is u64 (8 bytes) but parameter \`saxpy_param_0\` is .u32 (4 bytes)" \
	run --spec $F/cli/arg_type.ini
expect "spec: unknown key" 2 "$F/cli/unknown_key.ini:6: unknown key \`blokc\` in [kernel]" \
	run --spec $F/cli/unknown_key.ini
expect "spec: unknown key, did you mean" 2 \
	"$F/cli/unknown_key.ini:6: unknown key \`blokc\` in [kernel] (keys: ptx, name, grid, block, shared, max_insts); did you mean \`block\`?" \
	run --spec $F/cli/unknown_key.ini
expect "spec: missing kernel" 2 \
	"$F/cli/no_kernel.ini:4: kernel \`saxpi\` is not defined in $F/cli/../spec/saxpy.ptx (kernels there: saxpy)" \
	run --spec $F/cli/no_kernel.ini

expect "spec: output directory missing" 2 \
	"$F/spec/saxpy.ini:25: [buffer y]: cannot write output $tmp/nodir/saxpy-y.bin: directory $tmp/nodir does not exist" \
	run --spec $F/spec/saxpy.ini --output-dir "$tmp/nodir"

# ---- PTX errors (exit 2, PTX file:line:column) --------------------------
expect "malformed PTX" 2 "$F/cli/malformed.ptx:44:27: expected ']'" run --spec $F/cli/malformed.ini
expect "unknown opcode" 2 "$F/cli/unknown_op.ptx:47:2: unknown opcode 'fmx" \
	run --spec $F/cli/unknown_op.ini

# ---- kernel faults and limits (exit 2) -----------------------------------
expect "out-of-bounds store" 2 "out-of-bounds global store" run --spec $F/cli/oob.ini
expect "out-of-bounds names kernel, CTA, thread" 2 \
	"kernel oob_store, CTA (0,0,0), thread (100,0,0)" run --spec $F/cli/oob.ini
expect "out-of-bounds names the PTX line" 2 "$F/cli/faults.ptx:32" run --spec $F/cli/oob.ini
expect "out-of-bounds quotes the instruction" 2 "\`st.global.u32 [%rd4], %r5;\`" \
	run --spec $F/cli/oob.ini
expect "out-of-bounds names the allocation" 2 "size 400" run --spec $F/cli/oob.ini
expect "partial barrier" 2 "partial barrier: barrier 0 was reached by 32 of the 64 threads" \
	run --spec $F/cli/barrier.ini
expect "partial barrier names the kernel" 2 "kernel partial_barrier" run --spec $F/cli/barrier.ini
expect "runaway loop" 2 "kernel spin_forever exceeded --max-thread-insts 100000" \
	run --spec $F/cli/runaway.ini --max-thread-insts 100000
expect "runaway loop, 1e5 notation" 2 "exceeded --max-thread-insts 100000" \
	run --spec $F/cli/runaway.ini --max-thread-insts 1e5

# ---- verification failure (exit 1) ----------------------------------------
expect "spec: expect mismatch" 1 \
	"$F/cli/mismatch.ini:21: [buffer y] element 0 is 0.0593189895, $F/cli/../spec/saxpy-y.expected.bin expects -0.0508512631 (rel_tol 1e-06, abs_tol 0)" \
	run --spec $F/cli/mismatch.ini
expect "spec: mismatch summary says FAIL" 1 "verification    FAIL" run --spec $F/cli/mismatch.ini

# ---- successful runs -----------------------------------------------------
expect "spec: saxpy runs and matches" 0 "verification    PASS (1 of 1 buffers match" \
	run --spec $F/spec/saxpy.ini --output-dir "$tmp"
if cmp -s "$tmp/saxpy-y.bin" $F/spec/saxpy-y.expected.bin; then ok "spec: saxpy output matches"
else : >"$tmp/out"; : >"$tmp/err"; bad "spec: saxpy output" "$tmp/saxpy-y.bin differs from $F/spec/saxpy-y.expected.bin"; fi
if ls "$tmp" | grep -q '\.tmp\.'; then : >"$tmp/out"; : >"$tmp/err"; bad "spec: no temp files left" "found $(ls "$tmp")"
else ok "spec: no temp files left"; fi
# a sequence of launches with symbols, a struct argument, padded buffers and
# a texture (pipeline.ini), and texture and surface objects (textures.ini)
expect "spec: a sequence of launches" 0 "verification    PASS (2 of 2 buffers and symbols match" \
	run --spec $F/spec/pipeline.ini --output-dir "$tmp" -o "$tmp/pipeline.wtr"
if cmp -s "$tmp/pipeline-dst.bin" $F/spec/pipeline-dst.expected.bin; then ok "spec: pipeline output matches"
else : >"$tmp/out"; : >"$tmp/err"; bad "spec: pipeline output" "$tmp/pipeline-dst.bin differs"; fi
expect "spec: the sequence's trace holds every launch" 0 "5 launches" verify "$tmp/pipeline.wtr"
if "$BIN/weft-estimate" "$tmp/pipeline.wtr" -c configs/fermi-sm.ini >"$tmp/out" 2>"$tmp/err"; then
	ok "spec: a trace with texture fetches estimates"
else bad "spec: a trace with texture fetches estimates" "weft-estimate failed"; fi
expect "spec: texture and surface objects" 0 "verification    PASS (2 of 2 buffers match" \
	run --spec $F/spec/textures.ini --output-dir "$tmp"
expect "spec: a fault in a sequence names the launch and the run" 2 \
	"textures.ptx:220:2: [launch wide] ($F/cli/seq_fault.ini:29), run 1 of 2: out-of-range surface load of 4 bytes at (x 24 bytes, y 0)" \
	run --spec $F/cli/seq_fault.ini
expect "workload runs and verifies" 0 "PASS" run vvadd --size small --verify
expect "summary has thread insts" 0 "thread insts" run vvadd --size small
expect "summary names the host counters" 0 "host baseline" run vvadd --size small --verify
expect "a limit that is not reached" 0 "PASS" run vvadd --size small --verify --max-thread-insts 1e9
# dither, physics and strsearch verify at the default size too (make
# workload-tests runs every workload at the small one); under 0.2 s each
for w in dither physics strsearch; do
	expect "$w verifies at the default size" 0 "verification    PASS" run "$w" --size default --verify
done
expect "limit on a workload" 2 "vvadd: vvadd.ptx:" run vvadd --size small --max-thread-insts 10

# ---- stats (docs/analysis.md) ------------------------------------------
# stats_json NAME PYTHON-CHECK FILE: `stats --format json FILE` must exit 0,
# be valid JSON (python3 -m json.tool) and satisfy the check, an expression
# over d (the parsed object). Skipped without python3.
stats_json() {
	name=$1 check=$2
	shift 2
	if ! command -v python3 >/dev/null 2>&1; then echo "skip $name (no python3)"; return; fi
	"$T" stats --format json "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		bad "$name" "exit status $rc, expected 0"
	elif ! python3 -m json.tool "$tmp/out" >/dev/null 2>"$tmp/err"; then
		bad "$name" "invalid JSON"
	elif ! python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($check) else 1)" \
		"$tmp/out" 2>"$tmp/err"; then
		bad "$name" "check failed: $check"
	else
		ok "$name"
	fi
}
for w in vvadd bsearch matmul; do
	"$T" run $w --size small -o "$tmp/$w.wtr" >/dev/null 2>&1 || echo "FAIL stats: tracing $w"
done
# text: golden without the first line (it names the temporary path and the file size)
"$T" stats "$tmp/vvadd.wtr" >"$tmp/stats.txt" 2>"$tmp/err"
rc=$?
tail -n +2 "$tmp/stats.txt" >"$tmp/out"
if [ "${WEFT_UPDATE_GOLDEN:-0}" = 1 ]; then cp "$tmp/out" $G/stats-vvadd.txt; fi
if [ "$rc" -ne 0 ]; then bad "stats text" "exit status $rc, expected 0"
elif ! diff -u $G/stats-vvadd.txt "$tmp/out" >"$tmp/diff"; then
	cp "$tmp/diff" "$tmp/out"; : >"$tmp/err"; bad "stats text" "output differs from $G/stats-vvadd.txt"
else ok "stats text (golden)"; fi
stats_json "stats json: valid, thread_insts and file_bytes" \
	"d['thread_insts'] == sum(L['thread_insts'] for L in d['launch_list']) > 0 and d['file_bytes'] > 0" \
	"$tmp/vvadd.wtr"
stats_json "stats json: 4 widths x 5 policies, every lane instruction counted" \
	"all(len(L['divergence']) == 20 and all(g['thread_insts'] == L['thread_insts'] for g in L['divergence'])
	     for L in d['launch_list'])" "$tmp/vvadd.wtr"
stats_json "stats json: vvadd global accesses are unit-stride" \
	"d['launch_list'][0]['uniformity']['memory_static']['unit_stride'] == 3" "$tmp/vvadd.wtr"
stats_json "stats json: bsearch trip counts vary" \
	"[(l['static_divergent'], l['trip_min'] < l['trip_max']) for l in d['launch_list'][0]['loops']] == [(True, True)]" \
	"$tmp/bsearch.wtr"
stats_json "stats json: matmul tile loop trip count is uniform" \
	"[(l['static_divergent'], l['trip_min'] == l['trip_max'], l['ctas_varying']) for l in d['launch_list'][0]['loops']] == [(False, True, 0)]" \
	"$tmp/matmul.wtr"
stats_json "stats json: --launch and --every" \
	"len(d['launch_list']) == 1 and d['launch_list'][0]['ctas_read'] == 2 and d['sample'] != ''" \
	--launch 0 --every 2 "$tmp/vvadd.wtr"
expect "stats: no file" 2 "which trace? give one FILE.wtr" stats
expect "stats: bad format" 2 "bad --format \`xml\` (text or json)" stats --format xml "$tmp/vvadd.wtr"
expect "stats: launch out of range" 2 "--launch 3 is out of range (use 0..0)" stats --launch 3 "$tmp/vvadd.wtr"
expect "stats: help" 0 "usage: weft-trace stats" stats --help
head -c 200 "$tmp/vvadd.wtr" >"$tmp/stats-trunc.wtr"
expect "stats: truncated trace" 2 "is corrupt at byte offset" stats "$tmp/stats-trunc.wtr"

# ---- weft-estimate ---------------------------------------------------------
# Golden reports of a small bundled trace on the Fermi and Tesla-like SMs.
# The trace is made here, so its path, size and hash are normalised away
# (its hash is checked separately); everything else must match byte for byte.
E=$BIN/weft-estimate
FC=configs/fermi-sm.ini
TC=configs/tesla-sm.ini
# est_golden NAME FILE ARGS...: normalised stdout of weft-estimate ARGS must
# equal golden FILE and the exit status must be 0.
est_golden() {
	name=$1 file=$G/$2
	shift 2
	"$E" "$@" >"$tmp/raw" 2>"$tmp/err"
	rc=$?
	sed -e "s|$tmp/|TMP/|g" -e "s|$PWD/||g" \
	    -e 's/fnv1a64-file\([: ]\)[0-9a-f]\{16\}/fnv1a64-file\1HASH/g' \
	    -e 's/([0-9]* bytes, fnv1a64-file/(BYTES bytes, fnv1a64-file/' \
	    -e 's/fnv1a64-file:HASH,[0-9]*,/fnv1a64-file:HASH,BYTES,/' \
	    -e 's/"bytes": [0-9]*/"bytes": BYTES/' "$tmp/raw" >"$tmp/out"
	if [ "${WEFT_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$tmp/out" "$file"
	fi
	if [ "$rc" -ne 0 ]; then
		bad "$name" "exit status $rc, expected 0"
	elif [ ! -f "$file" ]; then
		bad "$name" "no golden file $file (WEFT_UPDATE_GOLDEN=1 creates it)"
	elif ! diff -u "$file" "$tmp/out" >"$tmp/diff"; then
		cp "$tmp/diff" "$tmp/out"
		: >"$tmp/err"
		bad "$name" "output differs from $file"
	else
		ok "$name"
	fi
}
if [ ! -x "$E" ]; then
	: >"$tmp/out"; : >"$tmp/err"; bad "weft-estimate" "$E is missing; run make first"
elif ! $BIN/weft-trace run vvadd --size small -o "$tmp/vvadd.wtr" >/dev/null 2>"$tmp/err" ||
     ! $BIN/weft-trace run bfs --size small -o "$tmp/bfs.wtr" >/dev/null 2>>"$tmp/err"; then
	: >"$tmp/out"; bad "estimate: traces" "weft-trace run -o failed"
else
	T_SAVED=$T
	T=$E
	W=$tmp/vvadd.wtr
	golden "estimate: help" estimate-help.txt --help
	expect "estimate: version" 0 "weft-estimate 0." --version
	est_golden "estimate: table" estimate-vvadd.txt "$W" -c $FC -c $TC
	est_golden "estimate: csv" estimate-vvadd.csv "$W" -c $FC -c $TC --format csv
	est_golden "estimate: json" estimate-vvadd.json "$W" -c $FC -c $TC --format json
	# the Maven-family tiles (vt model): MIMD baseline, c4v1 VT, c1v4 VT with the coalescer
	est_golden "estimate: vt tiles" estimate-vt-vvadd.txt "$W" -c configs/maven/mimd-c4r32.ini \
		-c 'configs/maven/vt-c4v1r256+bi+2s.ini' -c 'configs/maven/vt-c1v4r256+bi+2s+mc.ini' \
		--baseline mimd-c4r32
	# the study's figure types: a register sweep of one VT tile (area, clock
	# and energy from the calibration) normalised to a named baseline tile
	# given last (energy per task and performance per area ratios)
	est_golden "estimate: vt sweep vs a named baseline" estimate-vt-sweep-vvadd.txt "$W" \
		-c 'configs/maven/vt-c4v1r256+bi.ini' -c configs/maven/mimd-c4r32.ini \
		--sweep 'vt-c4v1r256+bi:tile.regs=32,64,128,256' --baseline mimd-c4r32

	# the hash is FNV-1a 64 of the file: recompute it in awk-free sh with od
	if command -v python3 >/dev/null 2>&1; then
		want=$(python3 -c 'import sys
h=0xcbf29ce484222325
for b in open(sys.argv[1],"rb").read(): h=((h^b)*0x100000001b3)&0xffffffffffffffff
print("%016x"%h)' "$W")
		expect "estimate: trace hash is FNV-1a of the file" 0 "fnv1a64-file $want" "$W" -c $FC
		"$E" "$W" -c $FC -c $TC --format json >"$tmp/out" 2>"$tmp/err"
		if python3 -m json.tool "$tmp/out" >/dev/null 2>"$tmp/err"; then ok "estimate: json parses"
		else bad "estimate: json parses" "python3 -m json.tool rejects it"; fi
		"$E" "$W" -c $FC -c $TC --format csv >"$tmp/est.csv" 2>"$tmp/err"
		"$E" "$W" -c $FC -c $TC --format json >"$tmp/est.json" 2>>"$tmp/err"
		if python3 -c 'import csv,json,sys
rows=list(csv.reader(open(sys.argv[1]))); d=json.load(open(sys.argv[2]))
h=rows[0]; first=h.index("cycles"); cpi0=[i for i,k in enumerate(h) if k.startswith("cpi_")][0]
for c in d["configs"]:
    for f,launch in [(l,str(l["launch"])) for l in c["launches"]]+[(c["total"],"total")]:
        keys=[k for k in f if k not in ("launch","kernel","stats","cpi_stack")]
        assert keys==h[first:cpi0], "json keys %s != csv columns %s"%(keys,h[first:cpi0])
        row=[r for r in rows[1:] if r[h.index("config")]==c["name"] and r[h.index("launch")]==launch][0]
        for k in keys:
            v=f[k]; cell=row[h.index(k)]
            assert (cell=="" if v is None else (cell==v if isinstance(v,str) else float(cell)==v)), (k,cell,v)
        for k,v in f["cpi_stack"].items():
            assert float(row[h.index("cpi_%s_cycles"%k)])==v, (k,v)
        assert abs(sum(f["cpi_stack"].values())-f["cycles"])<=0.01*f["cycles"], "cpi stack != cycles"
        assert f["limiter"]==max(f["cpi_stack"],key=f["cpi_stack"].get), "limiter"' \
		    "$tmp/est.csv" "$tmp/est.json" 2>"$tmp/err"
		then ok "estimate: json keys are the csv columns, same values; cpi stacks sum to the cycles"
		else bad "estimate: json vs csv" "see the python error"; fi
		"$E" "$tmp/bfs.wtr" -c $FC -c $TC --format csv >"$tmp/out" 2>"$tmp/err"
		if python3 -c 'import csv,sys
rows=list(csv.reader(open(sys.argv[1])))
n=len(rows[0]); assert all(len(r)==n for r in rows), "ragged rows"
L=int(sys.argv[2]); assert len(rows)==1+2*(L+1), "%d rows for %d launches"%(len(rows),L)
tot=[r for r in rows[1:] if r[11]=="total"]; assert len(tot)==2
assert tot[0][rows[0].index("speedup")]=="1"' "$tmp/out" \
		    "$($BIN/weft-trace info "$tmp/bfs.wtr" 2>/dev/null | awk '/^launches/ { print $2 }')" 2>"$tmp/err"
		then ok "estimate: csv rows (launches + total per config, same width)"
		else bad "estimate: csv rows" "see the python error"; fi
	fi

	# --explain (docs/estimate.md "Explanations"): the fabric models say how
	# they mapped and timed each launch, dmt what it removed and why; the
	# SIMT model says it explains nothing; CSV cannot hold it
	expect "estimate: -c a bundled config's name" 0 "/configs/maven/vt-c4v1r256+bi+2s.ini, model vt" \
		"$W" -c fermi-sm -c vt-c4v1r256+bi+2s
	expect "estimate: -c an unknown name" 2 "no bundled config of that name; did you mean \`fermi-sm\`?" \
		"$W" -c fermi-sn
	expect "estimate: -c a Maven name with an unknown suffix" 2 "vt-cCvVrR[+b|+bi][+1s|+2s][+d][+mc]" \
		"$W" -c vt-c4v1r256+bi+3s
	expect "estimate: --explain with csv" 2 "--explain writes prose" "$W" -c $FC --explain --format csv
	expect "estimate: --explain sgmf kernel bounds" 0 "timing per (sub-)kernel" \
		"$tmp/bfs.wtr" -c $FC -c configs/sgmf-core.ini --explain
	expect "estimate: --explain sgmf mapping" 0 "configuration load(s), spills" \
		"$tmp/bfs.wtr" -c configs/sgmf-core.ini --explain
	expect "estimate: --explain simt" 0 "explain fermi-sm: model simt explains no launch" \
		"$W" -c $FC --explain
	expect "estimate: --explain dmt removal by reason" 0 "removed by reason: elevator-load" \
		"$W" -c configs/dmt-cgra.ini --explain
	expect "estimate: --explain dmt ops against SIMT" 0 "dynamic operations (thread instructions executed" \
		"$W" -c configs/dmt-cgra.ini --explain
	if command -v python3 >/dev/null 2>&1; then
		"$E" "$tmp/bfs.wtr" -c $FC -c configs/sgmf-core.ini --explain --format json >"$tmp/out" 2>"$tmp/err"
		if python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); F,G=d["configs"]
assert all("explain" not in l for l in F["launches"]), "simt explains"
assert all("set by" in l["explain"] for l in G["launches"]), "fabric launch without explanation"' \
		    "$tmp/out" 2>"$tmp/err"
		then ok "estimate: --explain in json (fabric launches only)"
		else bad "estimate: --explain in json" "see the python error"; fi
	fi
	"$E" "$W" -c $FC --format json >"$tmp/out" 2>"$tmp/err"
	if grep -q '"explain"' "$tmp/out"; then bad "estimate: no explain unless asked" "json has explain"
	else ok "estimate: no explain unless asked"; fi

	# -o: the same bytes as stdout, atomically, no temp file left
	"$E" "$W" -c $FC -c $TC --format csv >"$tmp/stdout.csv" 2>"$tmp/err"
	if "$E" "$W" -c $FC -c $TC --format csv -o "$tmp/est.csv" >"$tmp/out" 2>"$tmp/err" && [ ! -s "$tmp/out" ]
	then ok "estimate: -o exits 0, stdout empty"
	else bad "estimate: -o" "failed or wrote to stdout"; fi
	if cmp -s "$tmp/stdout.csv" "$tmp/est.csv"; then ok "estimate: -o writes what stdout shows"
	else : >"$tmp/out"; bad "estimate: -o content" "$tmp/est.csv differs from stdout"; fi
	if ls "$tmp" | grep -q '\.tmp\.'; then : >"$tmp/out"; : >"$tmp/err"; bad "estimate: no temp files left" "found $(ls "$tmp")"
	else ok "estimate: no temp files left"; fi

	# provenance and options
	expect "estimate: baseline by name" 0 "config     tesla-sm (baseline)" "$W" -c $FC -c $TC --baseline tesla-sm
	expect "estimate: overrides recorded" 0 "overrides core.num_sm=2" "$W" -c $FC --set core.num_sm=2
	expect "estimate: override for one config" 0 "tesla-sm: $TC, model simt, hash" "$W" -c $FC -c $TC --set fermi-sm:core.num_sm=2
	expect "estimate: sampling recorded" 0 "sampling   every 2" "$W" -c $FC --sample every:2
	expect "estimate: random sampling" 0 "sampling   random" "$W" -c $FC --sample random:2:7
	expect "estimate: a fabric model warms a random sample" 0 "sampling   random 2 CTAs (seed 7) with warming" "$W" -c sgmf-core --sample random:2:7
	for a in "sgmf-core --no-warm" "$FC"; do
		# shellcheck disable=SC2086
		if "$E" "$W" -c $a --sample random:2:7 2>"$tmp/err" >"$tmp/out" &&
		   grep -qx 'sampling   random 2 CTAs (seed 7)' "$tmp/out"; then ok "estimate: no warming with -c $a"
		else bad "estimate: no warming with -c $a" "the sampling line is not 'random 2 CTAs (seed 7)'"; fi
	done
	expect "estimate: --no-warm needs a random sample" 2 "only a random sample" "$W" -c $FC --sample every:2 --no-warm
	expect "estimate: a warming window is recorded" 0 "sampling   random 2 CTAs (seed 7) with warming (grid-neighbour window)" "$W" -c sgmf-core --sample random:2:7 --warm-window grid
	expect "estimate: a fixed warming window is recorded" 0 "with warming (window 3 CTAs)" "$W" -c sgmf-core --sample random:2:7 --warm-window 3
	expect "estimate: --warm-window needs a warmed sample" 2 "only a warmed random sample" "$W" -c sgmf-core --sample random:2:7 --no-warm --warm-window grid
	expect "estimate: bad --warm-window" 2 "bad --warm-window \`0\`" "$W" -c sgmf-core --sample random:2:7 --warm-window 0
	expect "estimate: the jackknife is recorded" 0 "delete-a-group jackknife over random groups" "$W" -c $FC --sample random:2:7 --ci-method jackknife
	expect "estimate: --ci-method needs a random sample" 2 "only a random sample" "$W" -c $FC --sample every:2 --ci-method jackknife
	expect "estimate: bad --ci-method" 2 "bad --ci-method \`jack\`" "$W" -c $FC --sample random:2:7 --ci-method jack
	h1=$("$E" "$W" -c $FC --format csv 2>/dev/null | awk -F, 'NR == 2 { print $9 }')
	h2=$("$E" "$W" -c $FC --format csv --set core.num_sm=2 2>/dev/null | awk -F, 'NR == 2 { print $9 }')
	if [ -n "$h1" ] && [ "$h1" != "$h2" ]; then ok "estimate: overrides change the config hash"
	else : >"$tmp/out"; : >"$tmp/err"; bad "estimate: config hash" "same hash with and without --set ($h1)"; fi

	# errors: exit 2 with a message that says what and where
	head -c 100 "$W" >"$tmp/trunc.wtr"
	cp "$W" "$tmp/flip.wtr"
	printf 'X' | dd of="$tmp/flip.wtr" bs=1 seek=200 conv=notrunc 2>/dev/null
	printf '[model]\nname = simt\n[core]\nnum_smm = 2\n' >"$tmp/typo.ini"
	expect "estimate: no arguments" 2 "which trace?"
	expect "estimate: no config" 2 "add -c CONFIG.ini" "$W"
	expect "estimate: missing trace" 2 "cannot open trace $tmp/none.wtr" "$tmp/none.wtr" -c $FC
	expect "estimate: truncated trace" 2 "$tmp/trunc.wtr" "$tmp/trunc.wtr" -c $FC
	expect "estimate: corrupt trace" 2 "offset" "$tmp/flip.wtr" -c $FC
	expect "estimate: missing config" 2 "$tmp/none.ini" "$W" -c "$tmp/none.ini"
	expect "estimate: unknown key in a config" 2 "typo.ini:4" "$W" -c "$tmp/typo.ini"
	expect "estimate: unknown key names a close one" 2 "num_sm" "$W" -c "$tmp/typo.ini"
	expect "estimate: unknown key in --set" 2 "--set core.num_smm=2: unknown key" "$W" -c $FC --set core.num_smm=2
	expect "estimate: --set out of range" 2 "--set core.num_sm=0" "$W" -c $FC --set core.num_sm=0
	expect "estimate: bad --set, no =" 2 "--set core.num_sm: no '='" "$W" -c $FC --set core.num_sm
	expect "estimate: bad --set, no section" 2 "no section before the key" "$W" -c $FC --set num_sm=2
	expect "estimate: --set for an unknown config" 2 "no config named \`gtx\`" "$W" -c $FC --set gtx:core.num_sm=2
	printf 'event,node_nm,energy_pj,unit,source\nint_alu,45,1,op,test\n' >"$tmp/short.csv"
	expect "estimate: missing energy table" 2 "$tmp/none.csv" "$W" -c $FC --set tech.energy_table="$tmp/none.csv"
	expect "estimate: energy table without an event's row" 2 "the table has no \`simt_warp_fetch_decode\` row" \
		"$W" -c $FC --set tech.energy_table="$tmp/short.csv"
	expect "estimate: unknown baseline" 2 "unknown baseline \`nope\`; --baseline takes a config name" "$W" -c $FC -c $TC --baseline nope
	expect "estimate: unknown baseline lists names" 2 "fermi-sm, tesla-sm" "$W" -c $FC -c $TC --baseline nope
	expect "estimate: same config twice" 2 "two configs are named \`fermi-sm\`" "$W" -c $FC -c $FC
	expect "estimate: bad format" 2 "bad --format \`xml\`" "$W" -c $FC --format xml
	expect "estimate: bad sample" 2 "bad --sample \`every:0\`" "$W" -c $FC --sample every:0
	expect "estimate: unknown option" 2 "unknown option \`--frob\`" "$W" -c $FC --frob
	expect "estimate: two traces" 2 "one trace per run" "$W" "$W" -c $FC
	expect "estimate: -o into a missing directory" 2 "$tmp/no/such/out.csv" "$W" -c $FC -o "$tmp/no/such/out.csv"
	T=$T_SAVED
fi

# ---- weft-energy and weft-area -------------------------------------------
# Tables, scaling and area breakdowns (docs/energy.md, docs/area.md): key
# figures, every output format, and the errors with their exit codes.
if [ ! -x $BIN/weft-energy ] || [ ! -x $BIN/weft-area ]; then
	: >"$tmp/out"; : >"$tmp/err"; bad "weft-energy/weft-area" "$BIN/weft-energy or $BIN/weft-area is missing; run make first"
else
	T_SAVED=$T
	T=$BIN/weft-energy
	expect "energy: help" 0 "usage: weft-energy show" --help
	expect "energy: show names the rule" 0 "at 40 nm, rule stillmaker" show
	expect "energy: show cites sources" 0 "Horowitz ISSCC 2014: 32-bit FP mult 3.7 pJ" show
	expect "energy: show at the table node is unscaled" 0 "fp32_mul                 comp            3.7        45" show --node 45
	expect "energy: aladdin basis" 0 "Aladdin common/power_func.h: fp32 mul 35.32 pJ" show --basis aladdin40 --node 40
	expect "energy: gpuwattch basis cites GPUWattch" 0 "GPUWattch GTX480 model (Leng et al., ISCA 2013; gpuwattch_gtx480.xml): FPU FPUP 29.58 pJ" show --basis gpuwattch40
	expect "energy: gpuwattch basis at its node is unscaled" 0 "simt_rf_read,rf,7.267,40,40,7.267,no,stillmaker," show --basis gpuwattch40 --format csv
	expect "energy: gpuwattch basis scales to 65 nm" 0 '"event": "noc_flit", "from_energy_pj": 1938.6, "to_energy_pj": 3452.23}' scale --basis gpuwattch40 --from 40 --to 65 --format json
	expect "energy: bad basis" 2 "--basis mcpat: expected horowitz45, aladdin40, gpuwattch40 or maven65" show --basis mcpat
	expect "energy: show csv" 0 "fp32_mul,comp,3.7,45,45,3.7,no,stillmaker," show --node 45 --format csv
	expect "energy: show json" 0 '"event": "dram_access", "category": "dram", "energy_pj": 3584' show --format json
	expect "energy: scale stillmaker 65->45 area" 0 "area x0.66" scale --from 65 --to 45
	expect "energy: scale interpolates 40 nm and says so" 0 "40 nm interpolated log-log between 45 and 32 nm" scale --from 65 --to 40
	expect "energy: scale classic" 0 "energy x0.125   area x0.25" scale --from 65 --to 32.5 --rule classic
	expect "energy: scale reports the other rule" 0 "(the classic rule gives" scale --from 65 --to 40
	expect "energy: scale json" 0 '"area_factor": 0.31' scale --from 65 --to 32 --format json
	expect "energy: scale needs --to" 2 "scale needs --from N and --to M" scale --from 65
	expect "energy: unknown command" 2 "unknown command \`shwo\`" shwo
	expect "energy: bad rule" 2 "--rule dennard: expected classic or stillmaker" show --rule dennard
	expect "energy: node out of the rule's range" 2 "covers 7..180 nm" scale --from 65 --to 3
	expect "energy: missing table" 2 "cannot open the table" show --table "$tmp/none.csv"
	printf 'event,node_nm,energy_pj,unit,source\nx,45,1,op,\n' >"$tmp/nosrc.csv"
	expect "energy: a row without a source" 2 "nosrc.csv:2: the source column is empty" show --table "$tmp/nosrc.csv"
	if command -v python3 >/dev/null 2>&1; then
		$BIN/weft-energy show --format json >"$tmp/out" 2>"$tmp/err"
		if python3 -m json.tool "$tmp/out" >/dev/null 2>"$tmp/err"; then ok "energy: json parses"
		else bad "energy: json parses" "python3 -m json.tool rejects it"; fi
	fi

	T=$BIN/weft-area
	expect "area: help" 0 "usage: weft-area CONFIG" --help
	expect "area: tesla-sm total" 0 "total                                                 1.58813" configs/tesla-sm.ini
	expect "area: 16 Tesla SMs are the synthesised 25.41 mm^2" 0 '"total_area_mm2": 25.41,' configs/tesla-sm.ini --set core.num_sm=16 --format json
	expect "area: json has one entry per component" 0 '{"component": "tesla_sp_quadratic", "count": 64,' configs/tesla-sm.ini --format json
	expect "area: gtx480" 0 "fermi_sm                       15          33.07       496.05" configs/gtx480.ini
	expect "area: --node scales and says how" 0 "* scaled: stillmaker 65->40 nm" configs/tesla-sm.ini --node 40
	expect "area: csv total row" 0 "tesla-sm,total,,,,1.58813,65,,,stillmaker,," configs/tesla-sm.ini --format csv
	expect "area: fit coefficients" 0 "tesla_sm_fixed (a)       = 1.50526787 mm^2/SM" fit
	expect "area: fit reports leave-one-out" 0 "leave-one-out MAPE" fit
	expect "area: fit json" 0 '"r2": ' fit --format json
	# calibration fits of model descriptions (docs/calibration.md)
	MD=data/calibration/maven_tiles_65nm.csv
	golden "area: maven area fit" fit-maven-area.txt fit $MD data/calibration/maven_area.model
	golden "area: maven power fit" fit-maven-power.txt fit $MD data/calibration/maven_power.model
	golden "area: maven cycle fit" fit-maven-cycle.txt fit $MD data/calibration/maven_cycle.model
	golden "area: maven area fit csv" fit-maven-area.csv fit $MD data/calibration/maven_area.model --format csv
	golden "area: maven cycle fit json" fit-maven-cycle.json fit --format=json $MD data/calibration/maven_cycle.model
	if command -v python3 >/dev/null 2>&1; then
		if python3 -m json.tool $G/fit-maven-cycle.json >/dev/null 2>"$tmp/err"; then ok "area: calibration json parses"
		else : >"$tmp/out"; bad "area: calibration json parses" "python3 -m json.tool rejects it"; fi
	fi
	printf '[model]\nresponse = area_mm2\n[term a]\nfeature = cores\n[term b]\nfeature = 2 * cores\n' >"$tmp/sing.model"
	expect "area: singular calibration model names the terms" 2 "the features of terms a, b are linearly dependent over these 18 points" fit $MD "$tmp/sing.model"
	printf '[model]\nresponse = area_mm2\n[term mc]\nfeature = cores * mem_coalescer\n' >"$tmp/mc.model"
	expect "area: a component no tile has cannot be fitted" 2 "term mc's feature is 0 at every point" fit $MD "$tmp/mc.model"
	printf '[model]\nresponse = area_mm2\n[term c]\nfeature = coers\n' >"$tmp/typo.model"
	expect "area: a mistyped column names file:line" 2 "typo.model:4: [term c] feature: the data has no column \`coers\`; did you mean \`cores\`?" fit $MD "$tmp/typo.model"
	expect "area: a missing model file" 2 "cannot open the model description" fit $MD "$tmp/none.model"
	head -c 4194305 /dev/zero | tr '\0' 'x' >"$tmp/big.csv"
	expect "area: a data file over 4 MiB is refused before reading" 2 "big.csv: the data table is 4194305 bytes, more than the 4194304 this reader takes" fit "$tmp/big.csv" "$tmp/mc.model"
	expect "area: a device as the data" 2 "/dev/zero: is not a regular file" fit /dev/zero "$tmp/mc.model"
	printf '[model]\nname = simt\n[tech]\nnode_nm = 45\narea_tabel = x.csv\n' >"$tmp/typo.ini"
	expect "area: unknown key names file:line and a close key" 2 "typo.ini:5: unknown key [tech] area_tabel (model simt); did you mean [tech] area_table?" "$tmp/typo.ini"
	printf '[model]\nname = simt\n[tech]\nnode_nm = 2\n' >"$tmp/range.ini"
	expect "area: out-of-range value" 2 "range.ini:4: [tech] node_nm: 2 is out of range [7, 180] nm" "$tmp/range.ini"
	printf '[model]\nname = simt\n[tech]\narea_table = ./missing.csv\n' >"$tmp/miss.ini"
	expect "area: missing table names the config line" 2 "miss.ini:4: [tech] area_table: area table: " "$tmp/miss.ini"
	printf 'component,node_nm,area_mm2,unit,source\nfermi_sm,40,1,SM,test\n' >"$tmp/partial.csv"
	printf '[model]\nname = simt\n[tech]\narea_table = ./partial.csv\n' >"$tmp/partial.ini"
	expect "area: missing component row" 2 "no area for component fermi_l2_kib at 40 nm" "$tmp/partial.ini"
	expect "area: bad --set" 2 "--set core.num_sm=0: [core] num_sm: 0 is out of range" configs/tesla-sm.ini --set core.num_sm=0
	expect "area: missing config" 2 "cannot open the config" "$tmp/none.ini"
	expect "area: a bundled config by name" 0 "vt-c4v1r256+bi+2s" vt-c4v1r256+bi+2s
	expect "area: an unknown name" 2 "did you mean \`tesla-sm\`?" tesla-sn
	expect "area: bad format" 2 "--format xml: expected table, csv or json" configs/tesla-sm.ini --format xml
	if command -v python3 >/dev/null 2>&1; then
		$BIN/weft-area configs/gtx480.ini --format json >"$tmp/out" 2>"$tmp/err"
		if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert abs(sum(c["area_mm2"] for c in d["components"])-d["total_area_mm2"])<1e-6' "$tmp/out" 2>"$tmp/err"
		then ok "area: json parses and components sum to total_area_mm2"
		else bad "area: json" "does not parse or does not sum"; fi
	fi
	T=$T_SAVED
fi

# ---- traces: run -o, info, dump, verify (docs/trace-format.md) -----------
expect "trace: run -o" 0 "bytes per thread inst" run vvadd --size small -o "$tmp/tr.wtr"
expect "trace: run -o --level 19" 0 "bytes per thread inst" run vvadd --size small -o "$tmp/tr19.wtr" --level 19
expect "trace: --spec -o" 0 "bytes per thread inst" run --spec $F/spec/saxpy.ini --output-dir "$tmp" -o "$tmp/saxpy.wtr"
expect "trace: bad --level" 2 "bad --level \`42\`" run vvadd -o "$tmp/x.wtr" --level 42
expect "trace: --level needs -o" 2 "--level applies only with -o" run vvadd --level 3
expect "trace: unwritable -o" 2 "cannot create $tmp/no/such/dir.wtr" run vvadd --size small -o "$tmp/no/such/dir.wtr"
expect "trace: failed run leaves no trace" 2 "exceeded --max-thread-insts" run vvadd --size small --max-thread-insts 100 -o "$tmp/fail.wtr"
if ls "$tmp" | grep -q -e '\.tmp\.' -e '^fail\.wtr$' -e '^x\.wtr$'; then : >"$tmp/out"; : >"$tmp/err"; bad "trace: no temp files left" "found $(ls "$tmp")"
else ok "trace: no temp files left"; fi
expect "trace: verify" 0 "tr.wtr: OK (version 1, 1 launches" verify "$tmp/tr.wtr"
expect "trace: info" 0 "vvadd, size small" info "$tmp/tr.wtr"
expect "trace: info names the kernel" 0 "launch 0        vvadd (ptx " info "$tmp/tr.wtr"
expect "trace: info --decode" 0 "per CPU second (1 decoder thread, " info "$tmp/tr.wtr" --decode
expect "trace: info --decode --threads 2" 0 "(2 decoder threads, " info "$tmp/tr.wtr" --decode --threads 2
expect "trace: info spec has no workload" 0 "none recorded (a launch spec" info "$tmp/saxpy.wtr"
"$T" run vvadd --size small --verify -o "$tmp/hb.wtr" >/dev/null 2>&1
expect "trace: --verify records the host baseline" 0 "host baseline   CPU reference, wall" info "$tmp/hb.wtr"
expect "trace: no baseline without --verify" 0 "host baseline   not recorded" info "$tmp/tr.wtr"
if command -v python3 >/dev/null 2>&1; then
	"$T" info --format json "$tmp/tr.wtr" >"$tmp/out" 2>"$tmp/err"
	if python3 -c 'import json,os,sys; d=json.load(open(sys.argv[1])); assert d["file_bytes"] == os.path.getsize(sys.argv[2]); assert d["thread_insts"] > 0; assert d["launch_list"][0]["kernel"] == "vvadd"' "$tmp/out" "$tmp/tr.wtr" 2>"$tmp/err"
	then ok "trace: info json has thread_insts and file_bytes"
	else bad "trace: info json" "does not parse or lacks keys"; fi
fi
golden "trace: dump one thread" dump-vvadd.txt dump "$tmp/tr.wtr" --cta 1 --thread 5 --limit 25
expect "trace: dump --limit" 0 "stopped after 3 instruction lines" dump "$tmp/tr.wtr" --limit 3
expect "trace: dump bad --cta" 2 "--cta 99: launch 0 has" dump "$tmp/tr.wtr" --cta 99
expect "trace: dump bad --launch" 2 "--launch 4: the trace has 1 launches" dump "$tmp/tr.wtr" --launch 4
expect "trace: dump bad number" 2 "bad --thread \`x\`" dump "$tmp/tr.wtr" --thread x
cp "$tmp/tr.wtr" "$tmp/flip.wtr"
printf '\377' | dd of="$tmp/flip.wtr" bs=1 seek=300 conv=notrunc 2>/dev/null
expect "trace: verify a flipped byte" 1 "is corrupt at byte offset" verify "$tmp/flip.wtr"
head -c 500 "$tmp/tr.wtr" >"$tmp/short.wtr"
expect "trace: verify a truncated file" 1 "is corrupt at byte offset" verify "$tmp/short.wtr"
expect "trace: info on a truncated file" 2 "no valid footer" info "$tmp/short.wtr"
expect "trace: dump on a truncated file" 2 "is corrupt at byte offset" dump "$tmp/short.wtr"
expect "trace: verify not a trace" 2 "not a weft trace" verify $F/spec/saxpy.ini
expect "trace: verify missing file" 2 "cannot open trace" verify "$tmp/none.wtr"
expect "trace: verify no file" 2 "which trace?" verify
expect "trace: info bad format" 2 "bad --format \`xml\`" info --format xml "$tmp/tr.wtr"
expect "trace: info help" 0 "usage: weft-trace info" info --help
expect "trace: dump help" 0 "usage: weft-trace dump" dump --help
expect "trace: verify help" 0 "usage: weft-trace verify" verify --help
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import sys,zlib,struct; b=bytearray(open(sys.argv[1],"rb").read()); b[8:12]=struct.pack("<I",7); b[12:16]=struct.pack("<I",zlib.crc32(bytes(b[:12]))); open(sys.argv[2],"wb").write(b)' "$tmp/tr.wtr" "$tmp/v7.wtr"
	expect "trace: a newer version is refused" 2 "trace version 7 is newer than this weft (reads version 1); upgrade weft" info "$tmp/v7.wtr"
fi
# an interrupted run leaves neither the trace nor its temporary file
"$T" run bfs --size large -o "$tmp/int.wtr" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -INT $pid 2>/dev/null
wait $pid 2>/dev/null
if ls "$tmp" | grep -q -e '^int\.wtr' ; then : >"$tmp/out"; : >"$tmp/err"; bad "trace: interrupt removes the temporary file" "found $(ls "$tmp" | grep int)"
else ok "trace: interrupt removes the temporary file"; fi

# ---- weft-estimate --sweep (estimate/sweep.h, docs/estimate.md "Sweeps") ------
# Goldens on the SIMT model only (its numbers are settled); the fabric
# sweep is checked for shape. A sweep point must equal the same config run
# alone with --set (one read of the trace for all points changes nothing).
if [ -x "$E" ] && [ -f "$tmp/vvadd.wtr" ] && [ -f "$tmp/bfs.wtr" ]; then
	T_SAVED=$T
	T=$E
	W=$tmp/vvadd.wtr
	SG=configs/sgmf-core.ini
	est_golden "sweep: table (product, first sweep slowest)" estimate-sweep-vvadd.txt "$W" -c $FC \
		--sweep core.clock_mhz=700,1400 --sweep tech.node_nm=40,45
	est_golden "sweep: csv" estimate-sweep-vvadd.csv "$W" -c $FC --sweep core.clock_mhz=700,1400 \
		--sweep tech.node_nm=40,45 --format csv
	est_golden "sweep: json" estimate-sweep-vvadd.json "$W" -c $FC --sweep core.clock_mhz=700,1400 \
		--sweep tech.node_nm=40,45 --format json
	expect "sweep: range 1:4:x2" 0 "fermi-sm[core.num_sm=4]" "$W" -c $FC --sweep core.num_sm=1:4:x2
	expect "sweep: range 1:3:+1" 0 "fermi-sm[core.num_sm=3]" "$W" -c $FC --sweep core.num_sm=1:3:+1
	expect "sweep: a config without the key runs once" 0 "tesla-sm: $TC, model simt" "$W" -c $FC -c $TC \
		--sweep fermi-sm:core.num_sm=1,2
	expect "sweep: baseline names a point" 0 "config     fermi-sm[core.num_sm=2] (baseline)" "$W" -c $FC \
		--sweep core.num_sm=1,2 --baseline 'fermi-sm[core.num_sm=2]'
	expect "sweep: a swept config's name is its first point" 0 "config     fermi-sm[core.num_sm=1] (baseline)" \
		"$W" -c $TC -c $FC --sweep fermi-sm:core.num_sm=1,2 --baseline fermi-sm
	expect "sweep: point overrides recorded" 0 "core.num_sm=2,tech.node_nm=45,core.l1_latency=4" "$W" -c $FC \
		--set core.num_sm=2 --sweep tech.node_nm=45 --sweep core.l1_latency=4 --format csv
	expect "sweep: unknown key, did you mean" 2 "did you mean fabric.token_buffer?" "$W" -c $FC -c $SG \
		--sweep fabric.token_bufer=1,2
	expect "sweep: unknown key for a named config" 2 "unknown key [fabric] token_buffer for $FC (model simt)" \
		"$W" -c $FC -c $SG --sweep fermi-sm:fabric.token_buffer=1,2
	expect "sweep: a point out of range names the point" 2 "--sweep point fermi-sm[core.num_sm=0]" "$W" -c $FC \
		--sweep core.num_sm=2,0
	expect "sweep: no =" 2 "expected [CONFIG:]section.key=v1,v2" "$W" -c $FC --sweep core.num_sm
	expect "sweep: no section" 2 "expected [CONFIG:]section.key=v1,v2" "$W" -c $FC --sweep num_sm=1,2
	expect "sweep: no values" 2 "no values after" "$W" -c $FC --sweep core.num_sm=
	expect "sweep: empty value" 2 "an empty value in the list" "$W" -c $FC --sweep core.num_sm=1,,2
	expect "sweep: duplicate value" 2 "value \`2\` is listed twice" "$W" -c $FC --sweep core.num_sm=2,2
	expect "sweep: bad range" 2 "bad range \`1:8\`" "$W" -c $FC --sweep core.num_sm=1:8
	expect "sweep: range factor" 2 "needs a factor > 1" "$W" -c $FC --sweep core.num_sm=1:8:x1
	expect "sweep: unknown config" 2 "no config named \`gtx\`" "$W" -c $FC --sweep gtx:core.num_sm=1,2
	expect "sweep: --set and --sweep of one key" 2 "both give [core] num_sm of config fermi-sm" "$W" -c $FC \
		--set core.num_sm=2 --sweep core.num_sm=1,2
	expect "sweep: one key swept twice" 2 "give its values in one --sweep" "$W" -c $FC --sweep core.num_sm=1 \
		--sweep core.num_sm=2
	expect "sweep: the model cannot be swept" 2 "the model cannot be swept" "$W" -c $FC --sweep model.name=sgmf
	expect "sweep: unknown baseline point" 2 "or a sweep point as reports name it" "$W" -c $FC \
		--sweep core.num_sm=1,2 --baseline 'fermi-sm[core.num_sm=3]'
	if command -v python3 >/dev/null 2>&1; then
		# every point equals its config run alone with --set (bfs: several launches);
		# num_sm changes the replay, clock_mhz and dram_gbps share one
		ok_same=1
		for kv in core.num_sm=1,2,15 core.clock_mhz=700,1400 mem.dram_gbps=50,177.4; do
			key=${kv%%=*}
			"$E" "$tmp/bfs.wtr" -c $FC --sweep "$kv" --format csv >"$tmp/sw.csv" 2>"$tmp/err" || ok_same=0
			for v in $(echo "${kv#*=}" | tr , ' '); do
				"$E" "$tmp/bfs.wtr" -c $FC --set "$key=$v" --format csv >"$tmp/one.csv" 2>>"$tmp/err" || ok_same=0
				python3 -c 'import csv,sys
sw=list(csv.reader(open(sys.argv[1]))); one=list(csv.reader(open(sys.argv[2])))
h=sw[0]; key=sys.argv[3]; val=sys.argv[4]; first=h.index("cycles")
rows=[r for r in sw[1:] if r[h.index(key)]==val]
assert len(rows)==len(one)-1, (len(rows), len(one))
for a,b in zip(rows, one[1:]):
    assert a[first:h.index("speedup")]==b[one[0].index("cycles"):one[0].index("speedup")], (a, b)
    assert a[h.index("config_hash")]==b[one[0].index("config_hash")]' "$tmp/sw.csv" "$tmp/one.csv" "$key" "$v" 2>>"$tmp/err" || ok_same=0
			done
		done
		if [ $ok_same = 1 ]; then ok "sweep: every point equals its config run alone (same figures and hash)"
		else : >"$tmp/out"; bad "sweep: points vs single runs" "see the python error"; fi
		"$E" "$tmp/bfs.wtr" -c $FC -c $SG --sweep fabric.token_buffer=1,2,4 --baseline fermi-sm --format csv \
			>"$tmp/out" 2>"$tmp/err"
		if python3 -c 'import csv,sys
rows=list(csv.reader(open(sys.argv[1]))); h=rows[0]; L=int(sys.argv[2])
n=len(h); assert all(len(r)==n for r in rows), "ragged rows"
assert h.index("fabric.token_buffer")==h.index("overrides")+1
assert len(rows)==1+4*(L+1), len(rows)
tot=[r for r in rows[1:] if r[h.index("launch")]=="total"]
assert [r[h.index("config")] for r in tot]==["fermi-sm"]+["sgmf-core[fabric.token_buffer=%d]"%v for v in (1,2,4)]
assert [r[h.index("fabric.token_buffer")] for r in tot]==["","1","2","4"]
assert len(set(r[h.index("config_hash")] for r in tot))==4
assert all(r[h.index("baseline")]=="fermi-sm" for r in tot)' "$tmp/out" \
		    "$($BIN/weft-trace info "$tmp/bfs.wtr" 2>/dev/null | awk '/^launches/ { print $2 }')" 2>"$tmp/err"
		then ok "sweep: fabric token-buffer sweep against fermi-sm (rows, key column, hashes)"
		else bad "sweep: fabric csv" "see the python error"; fi
		"$E" "$W" -c $FC -c $SG --sweep fabric.token_buffer=1,2 --sweep tech.node_nm=40,45 --format json \
			>"$tmp/out" 2>"$tmp/err"
		if python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
assert d["sweep"]==["fabric.token_buffer","tech.node_nm"]
pts=[(c["config"],c["point"]) for c in d["configs"]]
want=[("fermi-sm",{"tech.node_nm":40}),("fermi-sm",{"tech.node_nm":45})]+[("sgmf-core",{"fabric.token_buffer":t,"tech.node_nm":n}) for t in (1,2) for n in (40,45)]
assert pts==want, pts' "$tmp/out" 2>"$tmp/err"
		then ok "sweep: json points, a config gets only the sweeps it has"
		else bad "sweep: json points" "see the python error"; fi
	fi
	T=$T_SAVED
fi

echo "cli tests: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
