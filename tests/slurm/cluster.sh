# cluster.sh - a one-node Slurm (slurm-wlm 22.05 + munge) living in a temp
# directory, for tests/t-slurm.sh: an exclusive partition (sbtest, the
# default) and one shared four ways (sbshare).  Config, key, state, spool,
# logs, sockets and pid files all under $CL_DIR, ports of its own, so it
# neither needs nor touches a system Slurm.  cluster_stop ends exactly the
# daemons it started.
# shellcheck shell=bash

CL_DIR="" CL_PIDS=()

# A TCP port nobody listens on, from a per-process start point.
cl_free_port() {
	local p=$1
	while [ -n "$(ss -Htln "sport = :$p" 2>/dev/null)" ]; do p=$((p + 1)); done
	echo "$p"
}

cl_pid() { # cl_pid PIDFILE -> the pid, once the daemon has written it

	for _ in $(seq 50); do
		if [ -s "$1" ]; then cat "$1"; return 0; fi
		sleep 0.1
	done
	return 1
}

# Running, not a zombie: a daemon killed after it forked away from us is
# reaped by whoever adopted it, maybe never inside a container.
cl_alive() {
	local st
	st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$st" ] && [ "$st" != Z ]
}

# cluster_start DIR: 0 when the node is idle; else 1 with the reason on stderr.
cluster_start() {
	CL_DIR=$1
	local m=$CL_DIR/munge s=$CL_DIR/slurm host node p1 p2 pid
	# munged runs as munge and refuses a socket in a directory others
	# cannot search: DIR and its parents must be searchable (mode o+x).
	mkdir -p "$m" "$s"/{state,spool,log}
	chmod 711 "$CL_DIR"
	chown munge:munge "$m"
	chmod 755 "$m"
	# Our own key: the system's may be missing, and a test must not add one.
	if ! runuser -u munge -- mungekey --create --keyfile "$m/munge.key" 2>/dev/null; then
		dd if=/dev/urandom of="$m/munge.key" bs=1024 count=1 status=none
		chown munge:munge "$m/munge.key"
		chmod 600 "$m/munge.key"
	fi
	runuser -u munge -- munged --key-file="$m/munge.key" --socket="$m/socket" \
		--pid-file="$m/munged.pid" --log-file="$m/munged.log" --seed-file="$m/seed" </dev/null ||
		{ echo "munged did not start: $(tail -n 1 "$m/munged.log" 2>/dev/null)" >&2; return 1; }
	pid=$(cl_pid "$m/munged.pid") || { echo "munged wrote no pid file" >&2; return 1; }
	CL_PIDS+=("$pid")

	host=$(hostname -s)
	# The node as slurmd sees it (real CPUs and memory): slurmd refuses to
	# serve a node declared bigger than the machine.
	node=$(slurmd -C | head -n 1)
	p1=$(cl_free_port $((20000 + $$ % 20000)))
	p2=$(cl_free_port $((p1 + 1)))
	cat >"$s/slurm.conf" <<EOF
ClusterName=sbtest
SlurmctldHost=$host
SlurmctldPort=$p1
SlurmdPort=$p2
AuthType=auth/munge
AuthInfo=socket=$m/socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/log/slurmctld.log
SlurmdLogFile=$s/log/slurmd.log
PlugStackConfig=$s/plugstack.conf
MailProg=/bin/true
# No cgroup setup needed: track job processes by parent pid.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
# No slurmdbd: no accounting, so sacct has nothing (slurm.sh does not need it).
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
$node State=UNKNOWN
PartitionName=sbtest Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=EXCLUSIVE
# Shared four ways: the tasks of an array that must run at once.
PartitionName=sbshare Nodes=$host Default=NO MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOF
	: >"$s/plugstack.conf"
	export SLURM_CONF=$s/slurm.conf
	# The daemons get /dev/null as stdin: started with fd 0 closed (as a
	# CI job without standard input runs them), slurmd's job launches
	# failed ("launch failed requeued held") and the test waited forever.
	slurmctld -f "$SLURM_CONF" </dev/null || { echo "slurmctld did not start" >&2; return 1; }
	pid=$(cl_pid "$s/slurmctld.pid") || { echo "slurmctld wrote no pid file" >&2; return 1; }
	CL_PIDS+=("$pid")
	slurmd -f "$SLURM_CONF" </dev/null || { echo "slurmd did not start" >&2; return 1; }
	pid=$(cl_pid "$s/slurmd.pid") || { echo "slurmd wrote no pid file" >&2; return 1; }
	CL_PIDS+=("$pid")
	local st
	for _ in $(seq 100); do
		st=$(sinfo -h -o %T 2>/dev/null || true)
		[ "$st" = idle ] && return 0
		sleep 0.2
	done
	echo "node not idle after 20 s (state '$st'): $(tail -n 2 "$s/log/slurmctld.log")" >&2
	return 1
}

# Cancels our jobs, then ends our daemons (slurmd, slurmctld, munged: the
# reverse of the start) by pid; 0 when all are gone.  Safe to call twice.
cluster_stop() {
	[ "${#CL_PIDS[@]}" -gt 0 ] || return 0
	local k pid left=()
	if [ -n "${SLURM_CONF:-}" ]; then
		scancel --me 2>/dev/null || true
		for _ in $(seq 50); do
			[ -z "$(squeue -h --me 2>/dev/null)" ] && break
			sleep 0.2
		done
	fi
	for ((k = ${#CL_PIDS[@]} - 1; k >= 0; k--)); do
		pid=${CL_PIDS[k]}
		kill "$pid" 2>/dev/null || continue
		for _ in $(seq 50); do
			cl_alive "$pid" || break
			sleep 0.1
		done
		if cl_alive "$pid"; then
			kill -KILL "$pid" 2>/dev/null || true
			left+=("$pid")
		fi
	done
	CL_PIDS=()
	[ "${#left[@]}" -eq 0 ]
}
