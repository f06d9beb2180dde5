#!/usr/bin/env bash
# SV-COMP's own harness on the tasks of ../shared/svcomp-tasks: BenchExec (from PyPI, in a venv
# under target/) runs contrib/benchexec/svcomp.xml without containers, two runs at once, with
# each run's witness kept under target/benchexec-witnesses; table-generator then reads the
# results. BenchExec 3.35 refuses task files of format 1.1 (format 1.0 plus `options`, which it
# accepts only from 2.0 on), so the tasks are copied to target/svcomp-tasks with those marked
# 2.0. Usage, from the repository's root after `cargo build --release`:
#   scripts/benchexec_svcomp.sh [TOOL_DIR]        (default target/release)
set -euo pipefail
cd "$(dirname "$0")/.."
tool_dir="${1:-target/release}"
tasks=../shared/svcomp-tasks/c
[ -d "$tasks" ] || { echo "no $tasks: the SV-COMP tasks are not on this machine" >&2; exit 2; }
if [ ! -x target/benchexec-venv/bin/benchexec ]; then
    python3 -m venv target/benchexec-venv
    target/benchexec-venv/bin/pip install --quiet --disable-pip-version-check benchexec==3.35
fi
rm -rf target/svcomp-tasks target/benchexec-results target/benchexec-witnesses target/benchexec-results?*
mkdir -p target/svcomp-tasks
cp -r "$tasks" target/svcomp-tasks/c
sed -i "s/^format_version: '1.1'/format_version: '2.0'/" target/svcomp-tasks/c/*/*.yml
PYTHONPATH=. target/benchexec-venv/bin/benchexec contrib/benchexec/svcomp.xml \
    --tool-directory "$tool_dir" --no-container -N 2 --outputpath target/benchexec-results/
PYTHONPATH=. target/benchexec-venv/bin/table-generator target/benchexec-results/*.results.default.xml.bz2 \
    --outputpath target/benchexec-results/ -f csv -f html
