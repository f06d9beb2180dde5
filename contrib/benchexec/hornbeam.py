# This file is part of Hornbeam (MIT licence, see LICENSE at the repository's root).
"""BenchExec tool-info module for Hornbeam, the harness of CHC-COMP and SV-COMP.

Two kinds of tasks:

- CHC files (`.smt2`, `.smt2.gz`; no property file): `hornbeam solve FILE --timeout T`, with T
  the run's CPU-time (else wall-time) limit less GRACE seconds, so that Hornbeam answers
  `unknown` itself before BenchExec would kill it. `sat` is the expected verdict `true` (the clauses have a model), `unsat` is
  `false`, as CHC-COMP's benchmark definitions expect.
- C programs (a task with a property file, or a `.c`/`.i` file; a task-definition `.yml`
  names both): `hornbeam verify PROGRAM --property PROPERTY.prp [--data-model ILP32|LP64]
  --timeout T --witness W` (`unreach-call` when no property file is given); `safe` is `true`,
  `unsafe` is `false(unreach-call)` or, under a memory property, `false(SUBPROPERTY)`. The
  witness W is `witness.yml` in the run's working directory, as SV-COMP's benchmark
  definitions collect it (`<resultfiles>witness.yml</resultfiles>`, which needs BenchExec's
  containers). Without containers, runs share one working directory: give the run
  definition the option `--witness-dir DIR` (read by this module, not passed on) and each
  run's witness is `DIR/CATEGORY/PROGRAM.PROPERTY.yml` instead (CATEGORY: the program's
  folder).

The first line of standard output is the answer; an `(error "...")` line or exit status 2 is
an error (the message is on standard error). Options of the benchmark definition are passed
before the input file.

Install: copy this file into a directory on PYTHONPATH (or BenchExec's `benchexec/tools/`)
and refer to it as `<benchmark tool="hornbeam" ...>`; test it with
`python3 -m benchexec.test_tool_info hornbeam --tool-directory DIR --no-container`.
"""

import os

import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    """Tool info for Hornbeam, a CHC solver and C verifier."""

    REQUIRED_PATHS = ["hornbeam"]
    # Hornbeam may answer up to 3 s (verify; 2 s for solve) past its --timeout.
    GRACE = 3

    def executable(self, tool_locator):
        return tool_locator.find_executable("hornbeam")

    def name(self):
        return "Hornbeam"

    def version(self, executable):
        # `hornbeam 0.1.0 (commit 1a2b3c4d5e, Z3 5.3.3.0)`
        line = self._version_from_tool(executable, "--version")
        return line[len("hornbeam ") :].strip() if line.startswith("hornbeam ") else line

    def program_files(self, executable):
        # The binary, and the Z3 library beside it if it was shipped so (see README
        # "Building"); a binary built on the machine finds Z3 in the build's cache.
        return self._program_files_from_executable(
            executable, self.REQUIRED_PATHS, parent_dir=False
        )

    def cmdline(self, executable, options, task, rlimits):
        program = task.single_input_file
        limit = []
        seconds = rlimits.cputime or rlimits.walltime
        if seconds:
            limit = ["--timeout", str(max(1, seconds - self.GRACE))]
        options = list(options)
        witness_dir = None
        if "--witness-dir" in options:
            k = options.index("--witness-dir")
            witness_dir = options[k + 1] if k + 1 < len(options) else "."
            del options[k : k + 2]
        if task.property_file or program.endswith((".c", ".i")):
            prop = ["--property", task.property_file] if task.property_file else []
            data_model = []
            if isinstance(task.options, dict) and task.options.get("data_model"):
                data_model = ["--data-model", task.options["data_model"]]
            witness = ["--witness", self.witness_path(witness_dir, program, task.property_file)]
            return (
                [executable, "verify"]
                + options
                + prop
                + data_model
                + limit
                + witness
                + [program]
            )
        return [executable, "solve"] + options + limit + [program]

    @staticmethod
    def witness_path(witness_dir, program, property_file):
        """`witness.yml`, or under `--witness-dir DIR` one file per program and property."""
        if witness_dir is None:
            return "witness.yml"
        category = os.path.basename(os.path.dirname(os.path.abspath(program)))
        name = os.path.splitext(os.path.basename(program))[0]
        prop = "unreach-call"
        if property_file:
            prop = os.path.splitext(os.path.basename(property_file))[0]
        folder = os.path.join(witness_dir, category)
        os.makedirs(folder, exist_ok=True)
        return os.path.join(folder, "%s.%s.yml" % (name, prop))

    def determine_result(self, run):
        lines = [line.strip() for line in run.output if line.strip()]
        first = lines[0] if lines else ""
        if first in ("sat", "safe"):
            return result.RESULT_TRUE_PROP
        if first == "unsat":
            return result.RESULT_FALSE_PROP
        if first == "unsafe":
            # Under a memory property the next line names the violated sub-property:
            # `valid-free: double free at prog.c:6:3`.
            sub = lines[1].split(":", 1)[0] if len(lines) > 1 else ""
            return {
                "valid-deref": result.RESULT_FALSE_DEREF,
                "valid-free": result.RESULT_FALSE_FREE,
                "valid-memtrack": result.RESULT_FALSE_MEMTRACK,
                "valid-memcleanup": result.RESULT_FALSE_MEMCLEANUP,
            }.get(sub, result.RESULT_FALSE_REACH)
        if first == "unknown":
            return result.RESULT_UNKNOWN
        if first.startswith("(error") or run.exit_code.value == 2:
            return result.RESULT_ERROR + " (input)"
        return result.RESULT_ERROR
