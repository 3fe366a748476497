# The CLI tests' shared part, sourced after `dyng` is set: a scratch directory, the counters and
# the checks. Each check counts a pass or prints what failed and counts a failure; `finish` ends
# the script with the totals.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
passes=0
# The CPU backends of this build (a build without OpenMP has only seq).
cpu_backends=seq
"$dyng" --version | grep -q openmp && cpu_backends="seq omp"
check() {  # check NAME COMMAND... : the command must succeed (its output in $tmp/out, $tmp/err)
  local name=$1; shift
  if "$@" >"$tmp/out" 2>"$tmp/err"; then passes=$((passes + 1)); else
    echo "FAIL: $name"; cat "$tmp/out" "$tmp/err" | head -20; failures=$((failures + 1)); fi
}
expect_exit() {  # expect_exit CODE PATTERN ARGS... : dyng exits with CODE and stderr matches PATTERN
  local code=$1 pattern=$2; shift 2
  "$dyng" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [[ $got -eq $code ]] && grep -qE -- "$pattern" "$tmp/err"; then passes=$((passes + 1)); else
    echo "FAIL: dyng $* exited $got (want $code), stderr:"; cat "$tmp/err"; failures=$((failures + 1)); fi
}
verified() {  # verified NAME : the last check's output says "verify ok"
  if grep -q "verify *ok" "$tmp/out"; then passes=$((passes + 1)); else
    echo "FAIL: $1: no 'verify ok'"; head -20 "$tmp/out"; failures=$((failures + 1)); fi
}
same() {  # same NAME FILE EXPECTED_TEXT
  if [[ "$(cat "$2")" == "$3" ]]; then passes=$((passes + 1)); else
    echo "FAIL: $1:"; diff <(printf '%s\n' "$3") "$2" | head; failures=$((failures + 1)); fi
}
r05_same() {  # r05_same NAME OUT STAGE... : OUT/obj0, obj1 hold the MOSP fixture r05's trees of each
  local name=$1 out=$2 stage suffix obj f  # stage (init, updated) byte for byte; $data is the test data
  shift 2
  for stage in "$@"; do
    suffix=Original; [[ $stage == updated ]] && suffix=Updated
    for obj in 0 1; do
      for f in distances$suffix SSSPTree$suffix; do
        check "$name obj$obj $f" cmp "$out/obj$obj/$f.txt" "$data/mosp_sssp/r05/$stage/obj$obj/$f.txt"
      done
    done
  done
}
finish() {
  echo "$passes passed, $failures failed"
  [[ $failures -eq 0 ]]
  exit
}
