#!/usr/bin/env python3
"""Checks the tool-info module against the real binary: for a few tasks (CHC files of the
examples, the C task in example/, a memory-safety task of tests/data/svcomp/tasks), builds
the command line as BenchExec would (with the run definition option `--witness-dir` to a
temporary folder), runs it, and asserts that determine_result gives the expected verdict and
that each C run wrote its witness there. Needs BenchExec importable (CI
installs it from PyPI into a venv) and run from the repository's root:

    PYTHONPATH=. python3 contrib/benchexec/test_hornbeam.py [--tool-directory target/release]
"""

import argparse
import os
import subprocess
import sys
import tempfile

import benchexec.result as result
from benchexec.tools.template import BaseTool2
from benchexec.util import ProcessExitCode

from contrib.benchexec.hornbeam import Tool

TASKS = [
    # (input file, property file, task options, expected result)
    ("examples/chc/counter-safe.smt2", None, None, result.RESULT_TRUE_PROP),
    ("examples/chc/counter-unsafe.smt2", None, None, result.RESULT_FALSE_PROP),
    ("contrib/benchexec/example/count_up.c", "contrib/benchexec/example/unreach-call.prp",
     {"language": "C", "data_model": "ILP32"}, result.RESULT_TRUE_PROP),
    ("tests/data/svcomp/tasks/heap/double-free.c",
     "tests/data/svcomp/tasks/properties/valid-memsafety.prp",
     {"language": "C", "data_model": "ILP32"}, result.RESULT_FALSE_FREE),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool-directory", default="target/release")
    a = ap.parse_args()
    tool = Tool()
    exe = tool.executable(BaseTool2.ToolLocator(tool_directory=a.tool_directory))
    assert tool.version(exe).startswith("0."), tool.version(exe)
    limits = BaseTool2.ResourceLimits(cputime=10)
    failed = 0
    witnesses = tempfile.mkdtemp(prefix="hornbeam-benchexec-")
    for path, prop, options, want in TASKS:
        task = BaseTool2.Task.with_files([path], property_file=prop, options=options)
        cmd = tool.cmdline(exe, ["--witness-dir", witnesses], task, limits)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        run = BaseTool2.Run(cmd, ProcessExitCode.create(value=p.returncode),
                            BaseTool2.RunOutput(p.stdout.splitlines()), None)
        got = tool.determine_result(run)
        ok = got == want
        if "--witness" in cmd:
            witness = cmd[cmd.index("--witness") + 1]
            ok = ok and witness.startswith(witnesses) and os.path.isfile(witness)
        failed += not ok
        print("%s %s -> %s (expected %s): %s" % ("ok  " if ok else "FAIL", " ".join(cmd), got, want,
                                                 p.stdout.splitlines()[:1]))
    if failed:
        sys.exit("benchexec tool info: %d of %d tasks wrong" % (failed, len(TASKS)))


if __name__ == "__main__":
    main()
