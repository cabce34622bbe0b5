#!/usr/bin/env bash
# Build the one-folder app (dist/caec-desktop/) with PyInstaller, then smoke-test the bundle:
# the window answers an offline query with --self-test (offscreen), and the bundled `caec`
# answers one too. Prints the bundle size and the self-test's wall time. Slow (minutes): run by
# hand or in a release job, never inside the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_venv.sh
.venv/bin/python -m pip install -q -e '.[packaging]' -c requirements/lock.txt

.venv/bin/pyinstaller --noconfirm --clean --log-level WARN \
  --distpath dist --workpath build/pyinstaller packaging/caec.spec

bundle=dist/caec-desktop
cp resources/caec-desktop.desktop resources/caec-desktop.png "$bundle/"
echo "== bundle: $bundle ($(du -sh "$bundle" | cut -f1), $(find "$bundle" -type f | wc -l) files)"

# Smoke check in a throw-away profile: no user config, key or history is read or written.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
run() {
  env -u CAEC_LLM_API_KEY -u OPENROUTER_API_KEY -u CAEC_MODE QT_QPA_PLATFORM=offscreen \
    CAEC_CONFIG_DIR="$scratch/config" CAEC_DATA_DIR="$scratch/data" "$@"
}

start=$EPOCHREALTIME
run "$bundle/caec-desktop" --self-test >"$scratch/self-test.txt" 2>"$scratch/self-test.err" || {
  echo "self-test failed:" >&2; cat "$scratch/self-test.txt" "$scratch/self-test.err" >&2; exit 1; }
end=$EPOCHREALTIME
grep -q "dt_R" "$scratch/self-test.txt" || { echo "self-test gave no calc sheet" >&2; exit 1; }
echo "== window --self-test answered offline in $(awk "BEGIN{printf \"%.2f\", $end - $start}") s"

run "$bundle/caec" ask --mode offline --json --trace "$scratch/trace.jsonl" \
  "rayleigh timestep particle_radius=1 mm density=2500 kg/m^3 youngs_modulus=70 GPa poisson_ratio=0.25" \
  >"$scratch/ask.json"
grep -q '"rayleigh_timestep"' "$scratch/ask.json" || { echo "caec ask gave no result" >&2; exit 1; }
run "$bundle/caec" replay "$scratch/trace.jsonl" | tail -1
echo "== smoke check passed"
