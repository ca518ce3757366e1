#!/usr/bin/env bash
# Time per generation of brilliant.sg and freecell-ga.sg on R ranks x T
# threads (docs/PERFORMANCE.md, "Evolution across MPI ranks"), and whether
# each run's log.jsonl is the one-process run's (1x1 comes first: the
# others are compared with it). Run from the repository
# root after `cargo build --release --features mpi`:
#
#   bash benches/mpi_scaling.sh                       # 1x1 1x2 2x1 4x1
#   CONFIGS="1x1 1x16 2x1 4x1 8x1 16x1 2x8 4x4" bash benches/mpi_scaling.sh
#   EXPS="brilliant:8" bash benches/mpi_scaling.sh    # experiment:generations
set -u
bin=${STRATAGEM:-./target/release/stratagem}
runs=${RUNS:-$(mktemp -d)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
one() { # experiment generations ranks threads
  local exp=$1 gens=$2 r=$3 t=$4 out=$runs/$1-$3x$4
  rm -rf "$out"
  local cmd=("$bin" evolve "programs/experiments/$exp.sg" --seed 1 --out "$out" --threads "$t" --stop-after "$gens")
  if [ "$r" != 1 ]; then cmd=(mpirun --bind-to none -np "$r" "${cmd[@]}"); fi
  local t0 t1 last
  t0=$(date +%s.%N)
  "${cmd[@]}" > "$out.txt" 2>&1
  local rc=$?
  t1=$(date +%s.%N)
  last=$(tail -1 "$out.txt")
  local per
  per=$(python3 -c "import json; L=[json.loads(l)['seconds'] for l in open('$out/timing.jsonl')]; print('%.3f' % (sum(L)/len(L)))" 2>/dev/null)
  local same=same
  cmp -s "$out/log.jsonl" "$runs/$exp-1x1/log.jsonl" || same=DIFFERENT
  printf '%s %sx%s rc=%s wall=%s s/generation=%s log=%s %s\n' "$exp" "$r" "$t" "$rc" \
    "$(python3 -c "print('%.1f' % ($t1 - $t0))")" "$per" "$same" "$last"
}
for exp in ${EXPS:-brilliant:8 freecell-ga:12}; do
  for rt in ${CONFIGS:-1x1 1x2 2x1 4x1}; do one "${exp%:*}" "${exp#*:}" "${rt%x*}" "${rt#*x}"; done
done
echo "runs in $runs"
