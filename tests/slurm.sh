#!/bin/sh
# slurm.sh - `make test-slurm` (not part of make check): the Slurm recipe of
# docs/scale-out.md on this machine. It brings up a private single-node
# Slurm from Debian's slurm-wlm and munge packages (make deps-slurm), in a
# temporary directory and on ports 16817/16818, so nothing under /etc and
# no running Slurm or munge is touched:
#
#   munged     its own key (mungekey), socket, pid and log files
#   slurm.conf one node, this machine as `slurmd -C` describes it (CPUs,
#              sockets, cores, memory), one partition; no cgroups, no
#              accounting (SLURM_CONF points every command at it)
#   slurmctld, slurmd, then waits until the node is idle
#
# then submits the sweep of tests/cli/shard.sh as an array job of N = 3
# tasks (`sbatch --array=0-2`, each `weft-estimate ... --shard
# $SLURM_ARRAY_TASK_ID/3 -o part-K.json`) and a merge job that depends on
# it (`--dependency=afterok:JOB`), waits for both, and compares the merged
# report, as JSON and as a table, byte for byte with one process's. It
# stops slurmctld, slurmd and munged (the ones it started, by their pid
# files) on every exit. The daemons run as root: run it as root, or it
# uses sudo for them. Exit status 0 when both reports are identical, 1
# when they differ or a job fails, 2 when Slurm cannot be brought up.

cd "$(dirname "$0")/.." || exit 3
BIN=${WEFT_BIN:-bin}
E=$PWD/$BIN/weft-estimate
N=3
[ -x "$E" ] || { echo "test-slurm: $E is missing; run make first" >&2; exit 2; }
for c in munged mungekey munge slurmctld slurmd sbatch sinfo scontrol squeue; do
	command -v $c >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
	command -v $c >/dev/null 2>&1 ||
		{ echo "test-slurm: $c is not installed; run make deps-slurm (Debian packages slurm-wlm and munge)" >&2; exit 2; }
done
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

D=$(mktemp -d "${TMPDIR:-/tmp}/weft-slurm.XXXXXX") || exit 3
chmod 755 "$D"
mkdir -p "$D/munge" "$D/ctld" "$D/spool" "$D/parts" "$D/out"
chmod 777 "$D/parts" "$D/out"
export SLURM_CONF=$D/slurm.conf
started=""

say() { echo "test-slurm: $*"; }
logs() {
	for f in "$D"/munged.log "$D"/slurmctld.log "$D"/slurmd.log "$D"/out/*; do
		[ -f "$f" ] || continue
		echo "---- $f (last lines)"
		tail -n 15 "$f"
	done
}
stop_pid() { # stop_pid FILE: the daemon whose pid FILE holds, if running
	[ -f "$1" ] || return 0
	pid=$(cat "$1" 2>/dev/null)
	[ -n "$pid" ] && $SUDO kill "$pid" 2>/dev/null
	i=0
	while [ -n "$pid" ] && $SUDO kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
}
teardown() {
	case $started in *slurm*)
		$SUDO env SLURM_CONF="$SLURM_CONF" scontrol shutdown >/dev/null 2>&1
		stop_pid "$D/slurmd.pid"
		stop_pid "$D/slurmctld.pid" ;;
	esac
	case $started in *munge*) stop_pid "$D/munged.pid" ;; esac
	$SUDO rm -rf "$D"
}
trap 'teardown' EXIT
trap 'exit 2' INT TERM

# ---- munge: a private daemon ------------------------------------------------
$SUDO mungekey --create --keyfile="$D/munge/munge.key" >/dev/null 2>&1 ||
	{ say "mungekey --create failed"; exit 2; }
$SUDO munged --force --socket="$D/munge/munge.socket" --key-file="$D/munge/munge.key" \
	--pid-file="$D/munged.pid" --log-file="$D/munged.log" --seed-file="$D/munge/munged.seed" ||
	{ say "munged did not start"; logs; exit 2; }
started=munge
if ! munge -n --socket="$D/munge/munge.socket" | unmunge --socket="$D/munge/munge.socket" >/dev/null 2>&1; then
	say "munge does not round-trip a credential on $D/munge/munge.socket"; logs; exit 2
fi

# ---- slurm.conf: this machine as one node ------------------------------------
node=$(slurmd -C | sed -n 's/^NodeName=\([^ ]*\).*/\1/p')
nodeline=$(slurmd -C | head -n 1)
: >"$D/plugstack.conf"
cat >"$SLURM_CONF" <<EOF
# written by tests/slurm.sh (make test-slurm)
ClusterName=weft-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$D/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$D/ctld
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
PlugStackConfig=$D/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
$nodeline NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=weft Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
say "one node: $nodeline"
$SUDO env SLURM_CONF="$SLURM_CONF" slurmctld || { say "slurmctld did not start"; logs; exit 2; }
started="$started slurm"
$SUDO env SLURM_CONF="$SLURM_CONF" slurmd || { say "slurmd did not start"; logs; exit 2; }
i=0
state=
while [ $i -lt 120 ]; do
	state=$(sinfo -h -n "$node" -o %T 2>/dev/null)
	[ "$state" = idle ] && break
	sleep 0.5
	i=$((i + 1))
done
[ "$state" = idle ] || { say "node $node is not idle after 60 s (state: ${state:-none})"; logs; exit 2; }
say "slurmctld and slurmd up, node $node idle"

# ---- the sweep: one process, then N array tasks and a dependent merge -------
$BIN/weft-trace run bfs --size small -o "$D/bfs.wtr" >/dev/null || { say "weft-trace run failed"; exit 2; }
chmod 644 "$D/bfs.wtr"
C=$PWD/configs
cat >"$D/shard.sbatch" <<EOF
#!/bin/sh
#SBATCH --job-name=weft-shard
#SBATCH --output=$D/out/shard-%a.out
#SBATCH --ntasks=1
exec "$E" "$D/bfs.wtr" -c "$C/fermi-sm.ini" -c "$C/sgmf-core.ini" --sweep fabric.token_buffer=1,2,4,8 \\
	--sweep tech.node_nm=40,45 --baseline 'sgmf-core[fabric.token_buffer=2,tech.node_nm=45]' --format json \\
	--shard "\$SLURM_ARRAY_TASK_ID/$N" -o "$D/parts/part-\$SLURM_ARRAY_TASK_ID.json"
EOF
"$E" "$D/bfs.wtr" -c "$C/fermi-sm.ini" -c "$C/sgmf-core.ini" --sweep fabric.token_buffer=1,2,4,8 \
	--sweep tech.node_nm=40,45 --baseline 'sgmf-core[fabric.token_buffer=2,tech.node_nm=45]' --format json \
	>"$D/one.json" || { say "the one-process run failed"; exit 1; }
"$E" "$D/bfs.wtr" -c "$C/fermi-sm.ini" -c "$C/sgmf-core.ini" --sweep fabric.token_buffer=1,2,4,8 \
	--sweep tech.node_nm=40,45 --baseline 'sgmf-core[fabric.token_buffer=2,tech.node_nm=45]' \
	>"$D/one.txt" || { say "the one-process run failed"; exit 1; }

array=$(sbatch --parsable --array=0-$((N - 1)) "$D/shard.sbatch") || { say "sbatch --array failed"; logs; exit 1; }
array=${array%%;*}
say "array job $array: $N shards"
timeout 600 sbatch --wait --parsable --job-name=weft-merge --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
	--output="$D/out/merge.out" \
	--wrap="'$E' --merge '$D'/parts/part-*.json -o '$D/merged.json' && '$E' --merge '$D'/parts/part-*.json --format table -o '$D/merged.txt'" \
	>"$D/merge.id"
rc=$?
say "merge job $(cat "$D/merge.id") (after $array): exit status $rc"
scontrol show job "$array" 2>/dev/null | sed -n 's/^ *\(JobId=[0-9]*\).*/\1/p; s/^ *\(JobState=[A-Z]*\).*/   \1/p'
if [ $rc -ne 0 ]; then
	say "FAIL: the merge job did not complete"; logs; exit 1
fi
fail=0
for f in json txt; do
	if cmp -s "$D/one.$f" "$D/merged.$f"; then
		say "ok: the merged report ($f) is the one-process report, byte for byte ($(wc -c <"$D/one.$f") bytes)"
	else
		say "FAIL: the merged report ($f) differs from the one-process report"
		diff -u "$D/one.$f" "$D/merged.$f" | head -n 20
		fail=1
	fi
done
[ $fail = 0 ] && say "passed: $N shards as a Slurm array job and a dependent merge job"
exit $fail
