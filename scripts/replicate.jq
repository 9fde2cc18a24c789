# replicate.jq - each published target beside this machine's number, and
# the input of its verdict (claim_in), which `slicebench verdict` judges
# (harness/report/claim.c: the one function every verdict on a published
# claim comes from).  Inputs: $T (targets file),
# $C (compare --format json per "config|baseline|metric"), $R (per config,
# the result's meta and its rows' workload, status and slice summary).
$T[0] as $tf | $C[0] as $cmp | $R[0] as $res |
($tf.load_tolerance_pct / 100) as $tol |

def machine($m):
  { pus: $m.topology.pus, cpu: ($m.topology.cpu_model // "" | gsub(" +$"; "")),
    kernel: $m.kernel.release, model: $m.preemption.model,
    # PREEMPT_RT: the guest's rt variant, or uname -v on any kernel
    rt: (($m.preemption.variant // "") == "rt" or ($m.kernel.version // "" | test("PREEMPT_RT"))),
    virtualization: (if $m.virtualization.hypervisor then $m.virtualization.kind else "none" end),
    slice_extension: ($m.slice_extension.available // false),
    mitigations: ([$m.cpu_vulnerabilities // {} | to_entries[] | select(.value | test("^(Mitigation|Vulnerable)")) | "\(.key): \(.value | split(";")[0])"]) };

def differs($t; $mc):
  [ (if $t.conditions.cpus != null and $t.conditions.cpus != $mc.pus then "CPUs: published \($t.conditions.cpus), here \($mc.pus)" else empty end),
    "kernel: published \($t.conditions.kernel // "not stated"), here \($mc.kernel)",
    "preemption model: published \($t.conditions.model // "not stated"), here \($mc.model)\(if $mc.rt then " on PREEMPT_RT" else "" end)",
    "mitigations here: \(if ($mc.mitigations | length) == 0 then "none" else ($mc.mitigations | join("; ")) end)" ];

# Why this machine's point is another experiment, or null.
def other_experiment($t; $mc; $n):
  $t.conditions as $c |
  if $c.model == "rt" and ($mc.rt | not) then "needs a PREEMPT_RT kernel, this one is not (preempt=\($mc.model))"
  elif $c.model != null and $c.model != "rt" and $c.model != $mc.model then "needs preemption model \($c.model), this kernel runs \($mc.model)"
  elif $c.threads == null or $n == null then null
  elif $c.cpus == null then null
  elif $n <= $c.cpus and $n > $mc.pus then "\($n) threads on \($mc.pus) PUs oversubscribe them; the source ran \($n) on \($c.cpus) CPUs without"
  elif $n > $c.cpus and ((($n / $mc.pus) / ($n / $c.cpus)) - 1 | fabs) > $tol then
    "\($n) threads on \($mc.pus) PUs are \($n / $mc.pus * 10 | round / 10) per PU, the source's \($n / $c.cpus * 10 | round / 10) per CPU"
  else null end;

def getpath_s($s): getpath($s | split("."));

# A ratio target is judged on its arm against its control: the arm's dry
# control for a claim about the grants, the published baseline for one
# about the request's cost (about: "cost").
def control($t): $t.control // $t.baseline;

def ratio_target($t; $mc; $r):
  ($cmp["\($t.config)|\(control($t))|\($t.metric)"] // {}) as $c |
  (($c.threshold_pct // 5) / 100) as $band |
  (if $t.conditions.threads != null then $t.conditions.threads
   elif $t.threads_per_pu != null then $t.threads_per_pu * $mc.pus else null end) as $n |
  ([$c.rows // [] | .[] | select(.metric == $t.metric and .a.workload == control($t) and .b.workload == $t.arm
      and ($n == null or .b.nthreads == $n))][0]) as $row |
  { ours: (if $row then { ratio: $row.ratio, ci95: $row.ratio_ci95, mde: $row.mde.ratio, threads: $row.b.nthreads,
                          against: control($t), compare_verdict: $row.verdict, reading: $row.reading,
                          grants_per_1000_ops: $row.b.grants_per_1000_ops, control_aa: $row.control_aa.verdict,
                          a: $row.a.value, b: $row.b.value } else null end),
    claim_in: { published: $t.published.ratio, row: $row, band: $band, about: ($t.about // "grants"),
      missing: (if $row then null else
        ([$r.results[] | select((.workload == $t.arm or .workload == control($t)) and .status != "ok" and ($n == null or .nthreads == $n))
          | "\(.workload) at \(.nthreads) threads: \(.status): \(.reason)"][0] // "no row of \($t.arm) against \(control($t))") +
        (if $c.error then " (compare: \($c.error | rtrimstr("\n")))" else "" end) end),
      not_comparable: other_experiment($t; $mc; $row.b.nthreads // $n) } };

def value_target($t; $mc; $r):
  ([$r.results[] | select(.workload == $t.workload and .status == "ok")][0]) as $x |
  (if $x == null then null else
     ($x | getpath_s($t.path)) as $v |
     # a statistic over no events is not a value (a harmonic mean of 0 grants)
     if $t.count_path and (($x | getpath_s($t.count_path)) // 0) == 0 then null else
     (
     if $t.per then ($x | getpath_s($t.per)) as $d | (if ($d // 0) > 0 and $v != null then $v / $d else null end) else $v end) end
   end) as $v |
  { ours: (if $v == null then null else { value: $v } end),
    claim_in: { published: $t.published.value, value: true, row: null,
      missing: (if $v == null then ([$r.results[] | select(.workload == $t.workload and .status != "ok") | .reason][0] // "no value") else null end),
      not_comparable: (if $v == null then null else other_experiment($t; $mc; 1) end) } };

{ schema: "slicebench-replicate/1", sources: $tf.sources,
  rows: [ $tf.targets[] as $t | ($res[$t.config] // null) as $r |
    { id: $t.id, source: $t.source, config: $t.config, kind: $t.kind, metric: ($t.metric // $t.path),
      unit: ($t.unit // "ratio"), published: $t.published, conditions: $t.conditions } +
    if $r == null then { ours: null, differs: [],
      claim_in: { published: ($t.published.ratio // $t.published.value), row: null, missing: "no result \($t.config).json" } }
    else machine($r.meta) as $mc |
      { machine: $mc, differs: differs($t; $mc) } +
      (if $t.kind == "ratio" then ratio_target($t; $mc; $r) else value_target($t; $mc; $r) end)
    end ] }
