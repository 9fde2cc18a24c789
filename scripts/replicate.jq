# replicate.jq - each published target beside this machine's number and a
# verdict (the rules: scripts/replicate.sh).  Inputs: $T (targets file),
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
def refusal($t; $mc; $n):
  $t.conditions as $c |
  if $c.model == "rt" and ($mc.rt | not) then "needs a PREEMPT_RT kernel, this one is not (preempt=\($mc.model))"
  elif $c.model != null and $c.model != "rt" and $c.model != $mc.model then "needs preemption model \($c.model), this kernel runs \($mc.model)"
  elif $c.threads == null or $n == null then null
  elif $c.cpus == null then null
  elif $n <= $c.cpus and $n > $mc.pus then "\($n) threads on \($mc.pus) PUs oversubscribe them; the source ran \($n) on \($c.cpus) CPUs without"
  elif $n > $c.cpus and ((($n / $mc.pus) / ($n / $c.cpus)) - 1 | fabs) > $tol then
    "\($n) threads on \($mc.pus) PUs are \($n / $mc.pus * 10 | round / 10) per PU, the source's \($n / $c.cpus * 10 | round / 10) per CPU"
  else null end;

# A row's direction in raw B/A terms: up, down, none (equivalent) or null.
def direction($row):
  ($row.lower_is_better // false) as $lib |
  def raw($v): if $v == "improved" then (if $lib then "down" else "up" end)
               elif $v == "regressed" then (if $lib then "up" else "down" end) else null end;
  if $row.verdict == "improved" or $row.verdict == "regressed" then raw($row.verdict)
  elif $row.verdict == "collapsed" then
    (if ($row.reading // "" | test("regressed")) then raw("regressed") elif ($row.reading // "" | test("improved")) then raw("improved") else null end)
  elif $row.tost.equivalent == true then "none" else null end;

def judge($t; $row; $band):
  $t.published.ratio as $p | direction($row) as $d |
  (if $p > 1 + $band then "up" elif $p < 1 - $band then "down" else "none" end) as $dp |
  ($row.ratio_ci95 // [null, null]) as $ci |
  ($ci[0] == null or ($p >= $ci[0] / (1 + $band) and $p <= $ci[1] * (1 + $band))) as $inside |
  ($row.mde.ratio // null) as $mde |
  if $dp == "none" then
    (if $d == "none" then ["reproduced", "equivalent within +-\($band * 100)%, as published"]
     elif $d != null then ["contradicted", "published no change, here \($row.verdict)"]
     else ["cannot tell", $row.reading // "inconclusive"] end)
  elif $d == $dp then
    (if $inside then ["reproduced", "\($row.verdict), the published x\($p) inside the interval"]
     else ["contradicted", "same direction, another size: published x\($p) outside the interval"] end)
  elif $d != null then ["contradicted", "published \($dp), here \(if $d == "none" then "equivalent" else $row.verdict end)"]
  elif $mde != null and ($p >= $mde or $p <= 1 / $mde) then
    ["contradicted", "not seen though the MDE x\($mde * 100 | round / 100) was within the published x\($p)"]
  else ["cannot tell", "at this power: \($row.reading // "inconclusive")"] end;

def getpath_s($s): getpath($s | split("."));

def ratio_target($t; $mc; $r):
  ($cmp["\($t.config)|\($t.baseline)|\($t.metric)"] // {}) as $c |
  (($c.threshold_pct // 5) / 100) as $band |
  (if $t.conditions.threads != null then $t.conditions.threads
   elif $t.threads_per_pu != null then $t.threads_per_pu * $mc.pus else null end) as $n |
  ([$c.rows // [] | .[] | select(.metric == $t.metric and .a.workload == $t.baseline and .b.workload == $t.arm
      and ($n == null or .b.nthreads == $n))][0]) as $row |
  { ours: (if $row then { ratio: $row.ratio, ci95: $row.ratio_ci95, mde: $row.mde.ratio, threads: $row.b.nthreads,
                          compare_verdict: $row.verdict, reading: $row.reading, a: $row.a.value, b: $row.b.value } else null end) } +
  if $t.published.ratio == null then { verdict: "cannot tell", why: "no published figure (\($tf.sources[$t.source].where))" }
  elif $row == null then
    { verdict: "cannot tell", why: ("not measured here" +
        ([$r.results[] | select(.workload == $t.arm and .status != "ok") | .reason][0] // null | if . then ": \(.)" else "" end) +
        (if $c.error then " (compare: \($c.error | rtrimstr("\n")))" else "" end)) }
  else
    refusal($t; $mc; $row.b.nthreads) as $no |
    if $no then { verdict: "refused", why: "a different experiment: \($no)" }
    else judge($t; $row; $band) as $j | { verdict: $j[0], why: $j[1] } end
  end;

def value_target($t; $mc; $r):
  ([$r.results[] | select(.workload == $t.workload and .status == "ok")][0]) as $x |
  (if $x == null then null else
     ($x | getpath_s($t.path)) as $v |
     # a statistic over no events is not a value (a harmonic mean of 0 grants)
     if $t.count_path and (($x | getpath_s($t.count_path)) // 0) == 0 then null else
     (
     if $t.per then ($x | getpath_s($t.per)) as $d | (if ($d // 0) > 0 and $v != null then $v / $d else null end) else $v end) end
   end) as $v |
  { ours: (if $v == null then null else { value: $v } end) } +
  if $t.published.value == null then { verdict: "cannot tell", why: "no published figure (\($tf.sources[$t.source].where))" }
  elif $v == null then { verdict: "cannot tell", why: ("not measured here" +
        ([$r.results[] | select(.workload == $t.workload and .status != "ok") | .reason][0] // null | if . then ": \(.)" else "" end)) }
  else (refusal($t; $mc; 1)) as $no |
    if $no then { verdict: "refused", why: "a different experiment: \($no)" }
    else { verdict: "cannot tell", why: "one pooled value per run: the suite gives it no interval" } end
  end;

{ schema: "slicebench-replicate/1", sources: $tf.sources,
  rows: [ $tf.targets[] as $t | ($res[$t.config] // null) as $r |
    { id: $t.id, source: $t.source, config: $t.config, kind: $t.kind, metric: ($t.metric // $t.path),
      unit: ($t.unit // "ratio"), published: $t.published, conditions: $t.conditions } +
    if ($t.published.ratio // $t.published.value) == null and $r == null then
      { ours: null, verdict: "cannot tell", why: "no published figure (\($tf.sources[$t.source].where)); not measured here", differs: [] }
    elif $r == null then { ours: null, verdict: "cannot tell", why: "not measured here: no result \($t.config).json", differs: [] }
    else machine($r.meta) as $mc |
      { machine: $mc, differs: differs($t; $mc) } +
      (if $t.kind == "ratio" then ratio_target($t; $mc; $r) else value_target($t; $mc; $r) end)
    end ] }
