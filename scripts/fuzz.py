#!/usr/bin/env python3
"""Fuzzes Hornbeam with hostile and degenerate inputs (SMT-LIB Horn scripts and C programs).

Every run is one generated input and the commands run on it:
- inputs: a seed file mutated 1-4 times, grammar-aware (SMT-LIB as S-expressions: edge numerals,
  swapped subterms, deleted/duplicated assertions and conjuncts, negated and flipped comparisons,
  let/ite/not wrappers, nesting a few thousand levels deep, let-chains, renamed symbols, changed
  sorts, commands around `(check-sat)`, self-referential and exponential `define-fun`s; C as
  tokens and lines: edge constants, swapped operators, deleted/duplicated tokens and lines,
  `goto`/`switch`/pointers/arrays/..., deep nesting, macros that expand a lot), sometimes damaged
  byte-wise afterwards (truncation, a random byte, a BOM, invalid UTF-8); or a small random
  valid Horn system over Int/Real (for the comparison with Z3); or a degenerate file (empty,
  10^5 parentheses, a chain of 10^4 predicates, a million-digit numeral, thousands of clauses
  of one predicate, a gzip bomb beyond the input cap, a NUL byte, ...). Seeds: every
  `.smt2`/`.c` under tests/data, plus those under each `--corpus DIR`.
- commands: `solve` (sometimes with --engine/--no-preprocess/--model/--cex/--stats/
  --deterministic/--threads 2), `solve
  --model` then `check FILE MODEL` with the model as printed or mutated, `print` (its output must
  be read back), `analyze`, `facts`, `verify` for C (its `--emit-chc` output must be read back),
  and now and then odd command-line values (`--timeout inf`, ...).
- findings: CRASH (a signal, `panicked`/`stack overflow`/`fatal runtime error` on stderr, or an
  exit status other than 0-3); HANG (no exit by the time limit + grace, for commands without a
  time limit (print, analyze, facts) plus UNBOUNDED_SECS_PER_MB per megabyte of input; the
  harness kills it --kill-after seconds later, so the report tells a late answer from a stuck run);
  DISAGREE (a definite answer that contradicts Z3 on the same assertions with the same limit,
  Hornbeam's own model that `check` rejects, or `print`/`--emit-chc` output that Hornbeam's
  parser rejects); BAD-ERROR (exit status 2 without a `FILE:LINE:COL:` first stderr line and an
  `(error "...")` stdout, or an answer line that is none of the documented ones; softer).

Everything is deterministic given --seed (run i draws from Random("SEED/i") whatever --jobs is);
timing-dependent outcomes (hangs, unknowns) may of course differ between machines.

Usage: scripts/fuzz.py [--seed 0] [--runs N | --duration SECS] [--timeout 2] [--grace 3] [--kill-after 10]
                       [--jobs 1] [--bin target/release/hornbeam] [--z3 PATH] [--corpus DIR]...
                       [--out fuzz-out] [--keep 3] [--memory 8192] [--case I]... [--log FILE]
                       [--allow-findings]
Every finding is saved to OUT as the input plus a `.txt` (command, status, stdout, stderr, the
mutations applied), at most --keep per distinct signature; OUT/findings-seedS.tsv lists them
all. The last line is `fuzz: N runs, C crashes, H hangs, D disagreements, E bad errors`; the
exit status is 1 if there were crashes, hangs or disagreements (0 with --allow-findings).
"""
import argparse, concurrent.futures as cf, gzip, math, os, random, re, resource, signal
import shlex, subprocess, sys, tempfile, threading, time
from pathlib import Path

from z3path import z3_binary

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BIN = ROOT / "target" / "release" / "hornbeam"
# Seconds per megabyte of input that a command without a time limit (print, analyze, facts)
# may take beyond the run's limit: 0.5 MB/s, far below what a linear pass needs.
UNBOUNDED_SECS_PER_MB = 2.0

# ---------------------------------------------------------------------------------------------
# S-expressions. Atoms are strings (quoted symbols, strings and keywords kept verbatim), lists
# are Python lists; comments are dropped. Everything is iterative: inputs nest thousands deep.

SEXP_TOKEN = re.compile(r'\s+|;[^\n]*|\(|\)|\|[^|]*\||"(?:[^"]|"")*"|[^\s()|";]+')


def parse_sexps(text):
    """The top-level S-expressions of `text`, or None if it does not tokenize or balance."""
    top, stack, i = [], [], 0
    cur = top
    while i < len(text):
        m = SEXP_TOKEN.match(text, i)
        if not m:
            return None
        tok, i = m.group(), m.end()
        if tok[0].isspace() or tok[0] == ";":
            continue
        if tok == "(":
            new = []
            cur.append(new)
            stack.append(cur)
            cur = new
        elif tok == ")":
            if not stack:
                return None
            cur = stack.pop()
        else:
            cur.append(tok)
    return top if not stack else None


def show(x):
    """Prints one S-expression on one line."""
    out, stack = [], [x]
    while stack:
        t = stack.pop()
        if isinstance(t, list):
            stack.append(")")
            for i in range(len(t) - 1, -1, -1):
                stack.append(t[i])
                if i:
                    stack.append(" ")
            out.append("(")
        else:
            out.append(t)
    return "".join(out)


def show_script(cmds):
    return "".join(show(c) + "\n" for c in cmds)


def clone(x):
    if not isinstance(x, list):
        return x
    root = []
    stack = [(x, root)]
    while stack:
        src, dst = stack.pop()
        for c in src:
            if isinstance(c, list):
                n = []
                dst.append(n)
                stack.append((c, n))
            else:
                dst.append(c)
    return root


def contains(a, b):
    """Whether node b occurs (by identity) inside node a, a included."""
    stack = [a]
    while stack:
        t = stack.pop()
        if t is b:
            return True
        if isinstance(t, list):
            stack.extend(c for c in t if isinstance(c, list))
    return False


NUMERAL = re.compile(r"^[0-9]+(\.[0-9]+)?$")
CMP = ["<", "<=", "=", ">=", ">", "distinct"]
BOOL_HEADS = {"and", "or", "not", "=>", "xor", "forall", "exists"} | set(CMP)
RESERVED = BOOL_HEADS | {"let", "!", "ite", "+", "-", "*", "/", "div", "mod", "abs", "true",
                         "false", "to_real", "to_int", "is_int", "select", "store", "_", "as",
                         "match"}


def is_symbol(t):
    return isinstance(t, str) and not NUMERAL.match(t) and t[0] not in ':"' and t not in RESERVED


def term_positions(script):
    """(parent, index, command index) of every term in assertions and define-fun bodies."""
    out, stack = [], []
    for k, c in enumerate(script):
        if isinstance(c, list) and c and c[0] == "assert" and len(c) > 1:
            stack.append((c, 1, k))
        elif isinstance(c, list) and c and c[0] in ("define-fun", "define-fun-rec") and len(c) > 4:
            stack.append((c, 4, k))
    while stack:
        p, i, k = stack.pop()
        out.append((p, i, k))
        t = p[i]
        if not isinstance(t, list) or not t:
            continue
        h = t[0]
        if h in ("forall", "exists"):
            if len(t) > 2:
                stack.append((t, 2, k))
        elif h == "let":
            if len(t) > 1 and isinstance(t[1], list):
                stack.extend((b, 1, k) for b in t[1] if isinstance(b, list) and len(b) == 2)
            if len(t) > 2:
                stack.append((t, 2, k))
        elif isinstance(h, str) and h not in ("_", "as"):
            stack.extend((t, j, k) for j in range(1, len(t)))
    return out


def sort_positions(script):
    """(parent, index) of every sort written in declarations and binders."""
    out = []
    for c in script:
        if not (isinstance(c, list) and c):
            continue
        if c[0] == "declare-fun" and len(c) == 4:
            if isinstance(c[2], list):
                out += [(c[2], j) for j in range(len(c[2]))]
            out.append((c, 3))
        elif c[0] in ("define-fun", "define-fun-rec") and len(c) == 5:
            if isinstance(c[2], list):
                out += [(b, 1) for b in c[2] if isinstance(b, list) and len(b) == 2]
            out.append((c, 3))
    for p, i, _ in term_positions(script):
        t = p[i]
        if isinstance(t, list) and len(t) > 1 and t[0] in ("forall", "exists") and isinstance(t[1], list):
            out += [(b, 1) for b in t[1] if isinstance(b, list) and len(b) == 2]
    return out


def looks_bool(t):
    if isinstance(t, list):
        return bool(t) and isinstance(t[0], str) and t[0] in BOOL_HEADS
    return t in ("true", "false")


def edge_numeral(rng):
    return rng.choice([
        "0", "1", ["-", "1"], "1" + "0" * 40, str(2**31), str(2**31 - 1), str(2**63),
        str(2**63 - 1), str(2**64), ["-", str(2**63)], ["-", str(2**31)], "1" + "0" * 400,
        "0.5", "00", "-1", "1e3", "#x10", ["/", "1", "0"], ["div", "1", "0"], ["mod", "7", "0"],
        ["*", str(2**62), str(2**62)], "0.0", "123456789012345678901234567890.5",
    ])


# Every mutation changes `script` (a list of commands) in place and returns a short description,
# or None if it found nothing to change.

def m_numeral(rng, s):
    pos = [(p, i) for p, i, _ in term_positions(s) if isinstance(p[i], str) and NUMERAL.match(p[i])]
    if not pos:
        return None
    p, i = rng.choice(pos)
    old, p[i] = p[i], edge_numeral(rng)
    return f"numeral {old} -> {show(p[i])[:40]}"


def kind(t):
    if isinstance(t, str):
        return "num" if NUMERAL.match(t) else "sym"
    return ("list", t[0] if t and isinstance(t[0], str) else "?")


def m_swap(rng, s):
    pos = term_positions(s)
    if len(pos) < 2:
        return None
    a = rng.choice(pos)
    same_cmd = rng.random() < 0.7
    cands = [b for b in rng.sample(pos, min(len(pos), 400))
             if kind(b[0][b[1]]) == kind(a[0][a[1]]) and b[0][b[1]] is not a[0][a[1]]
             and (not same_cmd or b[2] == a[2])]
    for b in cands:
        x, y = a[0][a[1]], b[0][b[1]]
        if contains(x, y) or contains(y, x):
            continue
        a[0][a[1]], b[0][b[1]] = y, x
        return f"swap {show(x)[:30]} <-> {show(y)[:30]}"
    return None


def m_command(rng, s):
    heads = ("assert", "declare-fun", "define-fun") if rng.random() < 0.2 else ("assert",)
    idx = [k for k, c in enumerate(s) if isinstance(c, list) and c and c[0] in heads]
    if not idx:
        return None
    k = rng.choice(idx)
    if rng.random() < 0.5:
        del s[k]
        return "delete command %d" % k
    s.insert(rng.randrange(len(s) + 1), clone(s[k]))
    return "duplicate command %d" % k


def m_conjunct(rng, s):
    pos = [(p, i) for p, i, _ in term_positions(s)
           if isinstance(p[i], list) and len(p[i]) >= 3 and p[i][0] in ("and", "or", "+", "*")]
    if not pos:
        return None
    p, i = rng.choice(pos)
    t = p[i]
    j = rng.randrange(1, len(t))
    if rng.random() < 0.5:
        del t[j]
        return f"delete argument {j} of {t[0]}"
    t.insert(rng.randrange(1, len(t) + 1), clone(t[j]))
    return f"duplicate argument {j} of {t[0]}"


def m_compare(rng, s):
    pos = [(p, i) for p, i, _ in term_positions(s) if isinstance(p[i], list) and p[i] and p[i][0] in CMP]
    if not pos:
        return None
    p, i = rng.choice(pos)
    if rng.random() < 0.4:
        p[i] = ["not", p[i]]
        return "negate comparison"
    old = p[i][0]
    p[i][0] = rng.choice([c for c in CMP if c != old])
    return f"flip {old} -> {p[i][0]}"


def m_wrap(rng, s):
    pos = term_positions(s)
    if not pos:
        return None
    p, i, _ = rng.choice(pos)
    t = p[i]
    v = rng.choice(["fz!0", "|fz var|", "x!1", "a"])
    w = rng.choice([
        ["let", [[v, t]], v], ["ite", "true", t, clone(t)], ["ite", ["=", "0", "0"], t, clone(t)],
        ["not", ["not", t]], ["!", t, ":named", "fz_name"], ["+", t, "0"], ["-", ["-", t]],
        ["*", "1", t], ["to_real", t], ["and", t, "true"], ["=>", "true", t], ["not", t],
        ["let", [[v, "0"]], t],
    ])
    p[i] = w
    return f"wrap in {w[0]}"


def nest(t, k, wrap):
    for _ in range(k):
        t = wrap(t)
    return t


def m_deep(rng, s):
    pos = term_positions(s)
    if not pos:
        return None
    p, i, _ = rng.choice(pos)
    t = p[i]
    k = rng.choice([200, 1000, 1500, 1990, 1999, 2000, 2001, 3000, 5000, 10000])
    how = rng.choice(["not", "neg", "plus0", "and", "let-chain", "let-double", "parens", "ite",
                      "forall", "wide", "named"])
    if how == "not":
        p[i] = nest(t, k, lambda x: ["not", x])
    elif how == "neg":
        p[i] = nest(t, k, lambda x: ["-", x])
    elif how == "plus0":
        p[i] = nest(t, k, lambda x: ["+", "0", x])
    elif how == "and":
        p[i] = nest(t, k, lambda x: ["and", "true", x])
    elif how == "ite":
        p[i] = nest(t, k, lambda x: ["ite", "true", x, clone(t)] if k <= 200 else ["ite", "false", "0", x])
    elif how == "named":
        p[i] = nest(t, k, lambda x: ["!", x, ":named", "n%d" % rng.randrange(10**9)])
    elif how == "parens":
        p[i] = nest(t, k, lambda x: [x])
    elif how == "forall":
        counter = iter(range(k))
        p[i] = nest(t, k, lambda x: ["forall", [["fz%d" % next(counter), "Int"]], x])
    elif how == "let-chain":
        # (let ((v0 T)) (let ((v1 v0)) ... vK)): built inside out.
        body = "v%d" % (k - 1)
        for j in range(k - 1, 0, -1):
            body = ["let", [["v%d" % j, "v%d" % (j - 1)]], body]
        p[i] = ["let", [["v0", t]], body]
    elif how == "let-double":
        # v(j) = v(j-1) op v(j-1): a DAG of k nodes whose tree has 2^k leaves.
        k = rng.choice([20, 40, 64, 100])
        op = "and" if looks_bool(t) else "+"
        body = "v%d" % (k - 1)
        for j in range(k - 1, 0, -1):
            body = ["let", [["v%d" % j, [op, "v%d" % (j - 1), "v%d" % (j - 1)]]], body]
        p[i] = ["let", [["v0", t]], body]
    else:  # wide
        k = rng.choice([10**4, 10**5])
        p[i] = ["and", t] + ["true"] * k if looks_bool(t) else ["+", t] + ["0"] * k
    return f"deep {how} x{k}"


def m_rename(rng, s):
    tp = term_positions(s)
    pos = [(p, i) for p, i, _ in tp if is_symbol(p[i])]
    pos += [(p[i], 0) for p, i, _ in tp if isinstance(p[i], list) and p[i] and is_symbol(p[i][0])]
    if not pos:
        return None
    p, i = rng.choice(pos)
    old = p[i]
    syms = sorted({q[j] for q, j in pos})
    bare = old[1:-1] if old.startswith("|") else old
    if rng.random() < 0.4:
        p[i] = "|%s|" % bare  # the same symbol
    else:
        p[i] = rng.choice(["fz_undeclared", rng.choice(syms), rng.choice(syms), bare + "!1", bare + "#0",
                           "||", "|%s |" % bare, "Int", "true", ":kw", "0", "|a\nb|", "é", "forall",
                           "x" * 5000])
    return f"rename {old[:30]} -> {p[i][:30]}"


def m_rename_bound(rng, s):
    """Renames one bound variable of an assertion everywhere in that assertion (usually
    meaning-preserving: the names chosen can also clash with predicates or other variables)."""
    asserts = [c for c in s if isinstance(c, list) and len(c) > 1 and c[0] == "assert"
               and isinstance(c[1], list) and len(c[1]) > 2 and c[1][0] == "forall"
               and isinstance(c[1][1], list) and c[1][1] and isinstance(c[1][1][0], list)]
    if not asserts:
        return None
    a = rng.choice(asserts)
    old = rng.choice(a[1][1])[0]
    preds = [c[1] for c in s if isinstance(c, list) and len(c) > 1 and c[0] == "declare-fun"]
    new = rng.choice(["x!1", "x!2", "|%s|" % old.strip("|"), "inv#0!1", "|with space|",
                      "fz_fresh"] + preds[:3] + [b[0] for b in a[1][1] if isinstance(b, list) and b])
    stack = [a]
    while stack:
        t = stack.pop()
        for j, c in enumerate(t):
            if c == old:
                t[j] = new
            elif isinstance(c, list):
                stack.append(c)
    return f"rename bound {old} -> {new}"


def m_sort(rng, s):
    pos = sort_positions(s)
    if not pos:
        return None
    p, i = rng.choice(pos)
    old = show(p[i])
    p[i] = rng.choice(["Int", "Real", "Bool", ["Array", "Int", "Int"], ["_", "BitVec", "8"], "Foo",
                       ["Array", "Int", ["Array", "Int", "Bool"]], "String", ["Seq", "Int"],
                       ["List", "Int"], "int", ["Int"]])
    return f"sort {old} -> {show(p[i])}"


EXTRA_COMMANDS = [
    "(check-sat)", "(get-model)", "(exit)", "(set-info :status unsat)", "(set-option :timeout 1)",
    "(push 1)", "(pop 1)", "(assert true)", "(assert false)", "(set-logic QF_LIA)",
    "(set-logic HORN)", "(declare-fun |fz p| (Int) Bool)", "(declare-fun fz0 () Bool)",
    "(assert (forall ((x Int)) (=> (> x 0) fz0)))", "(assert fz0)", "(define-fun c () Int 5)",
    "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))", "(get-info :version)", "()",
    "(assert)", "(check-sat extra)", "(declare-fun)", "(declare-const k Int)", "(reset)",
    "(set-info :source |a\nb|)", "(echo \"x\"\"y\")", "(assert (! true :named t))",
    "(define-sort S () Int)", "(declare-fun fz1 (Int Int) Bool)",
    "(assert (forall ((a Int) (a Int)) (=> (fz1 a a) false)))", "(assert (exists ((x Int)) true))",
    "(assert (forall () true))", "(set-option :produce-models true)",
]


def m_command_insert(rng, s):
    cmd = parse_sexps(rng.choice(EXTRA_COMMANDS)) or [[]]
    cs = [k for k, c in enumerate(s) if c == ["check-sat"]]
    k = (rng.choice(cs) + rng.choice([0, 1])) if cs and rng.random() < 0.6 else rng.randrange(len(s) + 1)
    s[k:k] = cmd
    return "insert %s at %d" % (show(cmd[0])[:40] if cmd else "()", k)


def first_assert(s):
    return next((k for k, c in enumerate(s) if isinstance(c, list) and c and c[0] == "assert"), len(s))


def m_define(rng, s):
    k = first_assert(s)
    num = [(p, i) for p, i, _ in term_positions(s) if isinstance(p[i], str) and NUMERAL.match(p[i])]
    how = rng.choice(["self", "self-bool", "rec", "exp", "mutual", "shadow", "wrong-arity"])
    defs, use = [], None
    if how == "self":
        defs = ["(define-fun fz_f ((x Int)) Int (fz_f x))"]
        use = ["fz_f", "0"]
    elif how == "self-bool":
        defs = ["(define-fun fz_b () Bool fz_b)"]
        use = "fz_b"
    elif how == "rec":
        defs = ["(define-fun-rec fz_r ((x Int)) Int (ite (<= x 0) 0 (fz_r (- x 1))))"]
        use = ["fz_r", "3"]
    elif how == "mutual":
        defs = ["(define-fun fz_a () Int fz_c)", "(define-fun fz_c () Int fz_a)"]
        use = "fz_a"
    elif how == "exp":
        # d(j)(x) = d(j-1)(d(j-1)(x)): 2^n applications once inlined as a tree.
        n = rng.choice([10, 25, 40, 64])
        defs = ["(define-fun fz_d0 ((x Int)) Int (+ x 1))"]
        defs += ["(define-fun fz_d%d ((x Int)) Int (fz_d%d (fz_d%d x)))" % (j, j - 1, j - 1) for j in range(1, n + 1)]
        use = ["fz_d%d" % n, "0"]
    elif how == "shadow":
        preds = [c[1] for c in s if isinstance(c, list) and len(c) > 1 and c[0] == "declare-fun"]
        defs = ["(define-fun %s ((x Int)) Bool true)" % (preds[0] if preds else "inv")]
    else:
        defs = ["(define-fun fz_g ((x Int) (y Int)) Int (+ x y))"]
        use = ["fz_g", "1"]
    s[k:k] = parse_sexps("\n".join(defs))
    if use is not None and num and not (use == "fz_b"):
        p, i = rng.choice(num)
        p[i] = use
    elif use == "fz_b":
        bools = [(p, i) for p, i, _ in term_positions(s) if looks_bool(p[i])]
        if bools:
            p, i = rng.choice(bools)
            p[i] = ["and", "fz_b", p[i]]
    return f"define-fun {how}"


SMT_MUTATIONS = [(m_numeral, 3), (m_swap, 2), (m_command, 2), (m_conjunct, 2), (m_compare, 2),
                 (m_wrap, 2), (m_deep, 2), (m_rename, 2), (m_rename_bound, 1), (m_sort, 1),
                 (m_command_insert, 2), (m_define, 1)]


def pick(rng, weighted):
    return rng.choices([f for f, _ in weighted], [w for _, w in weighted])[0]


def damage(rng, data):
    """Byte-level damage of an encoded input."""
    how = rng.choice(["truncate", "byte", "bom", "utf8", "nul", "delete", "paren", "crlf", "slice", "cr"])
    n = len(data)
    at = rng.randrange(n + 1)
    if how == "truncate":
        return data[:at], f"truncate at {at}"
    if how == "byte":
        return data[:at] + bytes([rng.randrange(256)]) + data[at:], f"byte at {at}"
    if how == "bom":
        return b"\xef\xbb\xbf" + data, "BOM"
    if how == "utf8":
        return data[:at] + rng.choice([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\xe2\x80\xae"]) + data[at:], f"bad utf-8 at {at}"
    if how == "nul":
        return data[:at] + b"\0" + data[at:], f"NUL at {at}"
    if how == "delete" and n:
        at = min(at, n - 1)
        return data[:at] + data[at + 1:], f"delete byte {at}"
    if how == "paren":
        idx = [i for i, b in enumerate(data) if b in b"()"]
        if idx:
            i = rng.choice(idx)
            return data[:i] + (b")" if data[i] == ord("(") else b"(") + data[i + 1:], f"flip paren at {i}"
    if how == "crlf":
        return data.replace(b"\n", b"\r\n"), "CRLF"
    if how == "cr":
        return data.replace(b"\n", b"\r"), "CR line ends"
    b = rng.randrange(n + 1)
    lo, hi = min(at, b), max(at, b)
    return data[:hi] + data[lo:hi] + data[hi:], f"duplicate bytes {lo}..{hi}"


# ---------------------------------------------------------------------------------------------
# Random valid Horn systems: a few predicates over Int (sometimes Real), linear constraints.

def gen_horn(rng):
    real = rng.random() < 0.15
    srt = "Real" if real else "Int"

    def const(lo=-10, hi=10):
        c = rng.randint(lo, hi)
        s = ("%d.0" if real else "%d") % abs(c)
        return s if c >= 0 else "(- %s)" % s

    def lin(vs):
        if not vs:
            return const()
        terms = []
        for v in rng.sample(vs, rng.randint(1, min(2, len(vs)))):
            c = rng.choice([1, 1, 1, -1, 2, 3])
            terms.append(v if c == 1 else "(* %s %s)" % (const(c, c), v))
        if rng.random() < 0.5:
            terms.append(const())
        return terms[0] if len(terms) == 1 else "(+ %s)" % " ".join(terms)

    def atom(vs):
        if vs and not real and rng.random() < 0.1:
            k = rng.randint(2, 4)
            return "(= (mod %s %d) %d)" % (rng.choice(vs), k, rng.randrange(k))
        return "(%s %s %s)" % (rng.choice(["<", "<=", "=", ">=", ">"]), lin(vs), const())

    def constraint(vs, k):
        parts = [atom(vs) for _ in range(k)]
        if len(parts) >= 2 and rng.random() < 0.2:
            parts = ["(or %s %s)" % (parts[0], parts[1])] + parts[2:]
        if parts and rng.random() < 0.1:
            parts[0] = "(not %s)" % parts[0]
        return parts[0] if len(parts) == 1 else "(and %s)" % " ".join(parts) if parts else "true"

    preds = [("p%d" % i, rng.randint(1 if i == 0 else 0, 3)) for i in range(rng.randint(1, 4))]
    lines = ["(set-logic HORN)"]
    lines += ["(declare-fun %s (%s) Bool)" % (p, " ".join([srt] * a)) for p, a in preds]

    def app(p, args):
        return "(%s %s)" % (p, " ".join(args)) if args else p

    def clause(vs, body, head):
        vs = vs or ["z"]
        binder = " ".join("(%s %s)" % (v, srt) for v in vs)
        return "(assert (forall (%s) (=> %s %s)))" % (binder, body, head)

    for n, (p, a) in enumerate(preds):
        if n == 0 or rng.random() < 0.4:
            ys = ["y%d" % j for j in range(a)]
            lines.append(clause(ys, constraint(ys, rng.randint(1, 2)), app(p, ys)))
    for _ in range(rng.randint(1, 2 * len(preds))):
        body, vs = [], []
        for b in range(2 if rng.random() < 0.25 else 1):
            p, a = rng.choice(preds)
            xs = ["x%d_%d" % (b, j) for j in range(a)]
            if xs and rng.random() < 0.1:
                xs[-1] = xs[0]  # a repeated variable: normalisation has to split it
            body.append(app(p, xs))
            vs += [x for x in xs if x not in vs]
        q, a = rng.choice(preds)
        ys = ["y%d" % j for j in range(a)]
        cs = ["(= %s %s)" % (y, lin(vs)) if rng.random() < 0.7 else atom([y] + vs) for y in ys]
        if rng.random() < 0.5:
            cs.append(atom(vs))
        head = app(q, ys)
        if ys and rng.random() < 0.1:
            head = app(q, [const()] + ys[1:])  # a constant argument in the head
            cs = cs[1:]
        lines.append(clause(vs + ys, "(and %s)" % " ".join(body + cs), head))
    for _ in range(rng.randint(1, 2)):
        p, a = rng.choice(preds)
        xs = ["x%d" % j for j in range(a)]
        lines.append(clause(xs, "(and %s %s)" % (app(p, xs), constraint(xs, rng.randint(1, 2))), "false"))
    lines.append("(check-sat)")
    return "\n".join(lines) + "\n"


def gen_degenerate_smt(rng):
    how = rng.choice(["empty", "blank", "comment", "opens", "closes", "only-check-sat", "numeral",
                      "symbol", "chain", "arity", "clauses", "string", "no-newline-comment", "dag",
                      "self-loops", "bomb", "nul"])
    hdr = "(set-logic HORN)\n"
    if how == "empty":
        t = ""
    elif how == "blank":
        t = " \n\t\r\n" * 100
    elif how == "comment":
        t = "; nothing but a comment\n"
    elif how == "opens":
        t = "(" * rng.choice([1000, 100000])
    elif how == "closes":
        t = ")" * 1000
    elif how == "only-check-sat":
        t = rng.choice(["(check-sat)\n", hdr + "(check-sat)\n", hdr + "(check-sat)(check-sat)"])
    elif how == "numeral":
        t = hdr + "(declare-fun p (Int) Bool)\n(assert (forall ((x Int)) (=> (= x %s) (p x))))\n" \
            "(assert (forall ((x Int)) (=> (and (p x) (> x 0)) false)))\n(check-sat)\n" % ("9" * rng.choice([1000, 10**6]))
    elif how == "symbol":
        name = "p" * rng.choice([10**4, 10**6])
        t = hdr + "(declare-fun %s (Int) Bool)\n(assert (forall ((x Int)) (=> (= x 0) (%s x))))\n(check-sat)\n" % (name, name)
    elif how == "chain":
        # p0 -> p1 -> ... -> pn -> false: long paths through every graph algorithm.
        n = rng.choice([1000, 5000, 20000])
        t = hdr + "".join("(declare-fun p%d (Int) Bool)\n" % i for i in range(n + 1))
        t += "(assert (forall ((x Int)) (=> (= x 0) (p0 x))))\n"
        t += "".join("(assert (forall ((x Int) (y Int)) (=> (and (p%d x) (= y (+ x 1))) (p%d y))))\n" % (i, i + 1) for i in range(n))
        if rng.random() < 0.5:
            t += "(assert (forall ((x Int) (y Int)) (=> (and (p%d x) (= y x)) (p0 y))))\n" % n  # one big loop
        t += "(assert (forall ((x Int)) (=> (and (p%d x) (< x 0)) false)))\n(check-sat)\n" % n
    elif how == "arity":
        n = rng.choice([500, 3000])
        xs = " ".join("x%d" % i for i in range(n))
        t = hdr + "(declare-fun p (%s) Bool)\n" % " ".join(["Int"] * n)
        t += "(assert (forall (%s) (=> (= x0 0) (p %s))))\n" % (" ".join("(x%d Int)" % i for i in range(n)), xs)
        t += "(assert (forall (%s) (=> (and (p %s) (< x0 0)) false)))\n(check-sat)\n" % (" ".join("(x%d Int)" % i for i in range(n)), xs)
    elif how == "clauses":
        n = rng.choice([2000, 10000])
        t = hdr + "(declare-fun p (Int) Bool)\n"
        t += "".join("(assert (forall ((x Int)) (=> (= x %d) (p x))))\n" % i for i in range(n))
        t += "(assert (forall ((x Int)) (=> (and (p x) (< x 0)) false)))\n(check-sat)\n"
    elif how == "self-loops":
        # Many clauses of one predicate, copies of one or all different: memory must grow with
        # the input, not with clauses x engines x threads (issue 60).
        n, same = rng.choice([300, 1000, 3000]), rng.random() < 0.5
        t = hdr + "(declare-fun P (Int) Bool)\n(assert (forall ((x Int)) (=> (= x 0) (P x))))\n"
        t += "".join("(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x %d))) (P y))))\n"
                     % (2 if same else i + 1) for i in range(n))
        t += "(assert (forall ((x Int)) (=> (and (P x) (< x 0)) false)))\n(check-sat)\n"
    elif how == "bomb":
        # gzip members repeated: 200-300 MB of zeros or spaces from a few hundred KB, beyond the
        # input cap (issue 60): refused with a located error, in little memory.
        fill = rng.choice([b"\0", b" "])
        member = gzip.compress(fill * (1 << 20), 9)
        return gzip.compress(hdr.encode()) + member * rng.choice([200, 300]), "degenerate bomb"
    elif how == "nul":
        t = hdr + "(declare-fun p (Int) Bool)\n\0(check-sat)\n"
    elif how == "string":
        t = hdr + '(set-info :source "a ""quoted"" \\ string\n; not a comment")\n(check-sat)\n'
    elif how == "no-newline-comment":
        t = hdr + "(check-sat) ; comment at the end without a newline"
    else:
        # a let-DAG with 2^n paths: v(j) = v(j-1) + v(j-1)
        n = rng.choice([30, 60])
        t = hdr + "(declare-fun p (Int) Bool)\n(assert (forall ((x Int)) (=> (= x 0) (p x))))\n"
        lets = "".join("(let ((v%d (+ v%d v%d))) " % (i + 1, i, i) for i in range(n))
        t += "(assert (forall ((v0 Int)) (=> (and (p v0) %s(> v%d 0)%s) false)))\n(check-sat)\n" % (lets, n, ")" * n)
    return t, f"degenerate {how}"


# ---------------------------------------------------------------------------------------------
# C programs: tokens (whitespace and comments kept, so joining gives the text back) and lines.

C_TOKEN = re.compile(r'\s+|//[^\n]*|/\*.*?\*/|#[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
                     r'|0[xX][0-9a-fA-F]+[uUlL]*|[0-9]+[uUlL]*|[A-Za-z_]\w*'
                     r'|<<=|>>=|->|\+\+|--|&&|\|\||[<>=!+\-*/%&|^]=|<<|>>|.', re.S)
C_INT = re.compile(r"^(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*$")
C_IDENT = re.compile(r"^[A-Za-z_]\w*$")
C_OPS = [["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"], ["<", "<=", ">", ">=", "==", "!="],
         ["&&", "||"], ["=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="], ["++", "--"]]
C_KEYWORDS = {"int", "unsigned", "signed", "long", "short", "char", "void", "if", "else", "while",
              "for", "do", "return", "break", "continue", "extern", "static", "const", "_Bool",
              "sizeof", "goto", "switch", "case", "default", "struct", "typedef", "volatile"}
C_EDGE = ["(-2147483647-1)", "-2147483648", "2147483647", "2147483648", "4294967295u", "0", "-1",
          "0x7fffffff", "0x80000000", "0xffffffffffffffffULL", "99999999999999999999999999",
          "9223372036854775807LL", "(-9223372036854775807LL-1)", "'\\0'", "077", "08", "1u", "0L",
          "18446744073709551616", "0x", "1 << 31", "(1 << 63)", "-(-2147483647-1)"]
C_SNIPPETS = [
    "goto fz_l; fz_l: ;", "switch (0) { case 0: break; default: ; }", "int *fz_p = 0;",
    "int fz_a[4];", "struct fz_s { int a; } fz_v;", "float fz_f = 1.5;", "__asm__(\"nop\");",
    "reach_error();", "while (1) ;", "for (;;) { }", "return;", "break;", "continue;",
    "__VERIFIER_assume(0);", "int fz_n = __VERIFIER_nondet_int();", "fz_lbl: fz_lbl: ;",
    "typedef int fz_t; fz_t fz_y = 1;", "static int fz_s = 1;",
    "unsigned long long fz_u = 18446744073709551615ULL;", "int fz_sh = 1 << 40;",
    "int fz_d = 5 / 0;", "int fz_m = (-2147483647-1) % -1;", "int fz_q = (-2147483647-1) / -1;",
    "int fz_x = 1 << -1;", "long long fz_ll = 1LL << 64;", "int fz_r = fz_r + 1;",
    "{ int x = x; }", "if (__VERIFIER_nondet_int()) reach_error();", "main();", "undefined_fn();",
    "char *fz_s = \"str\";", "int fz_c = sizeof(int);", "int fz_t = 1 ? 2 : 3;",
    "ID = ID / 0;", "ID = ID % 0;", "ID = ID << 33;", "ID = ID >> -1;",
    "ID = (ID * 2147483647) % -1;", "ID = -ID;", "ID = (-2147483647-1) / ID;",
    "ID = __VERIFIER_nondet_int(); __VERIFIER_assume(ID == (-2147483647-1)); ID = ID / -1;",
    "do ; while (0);", "ID++; ID--; --ID; ++ID;", "ID = (ID, ID);", "ID = (char)300;",
    "ID = (unsigned)-1;", "ID = (_Bool)5;", "ID = (long long)ID * (long long)ID;",
]


def c_tokens(text):
    return [m.group() for m in C_TOKEN.finditer(text)]


def c_variables(toks):
    """Identifiers that follow a type keyword (an approximation of declared variables)."""
    out = []
    types = {"int", "long", "short", "char", "unsigned", "signed", "_Bool"}
    prev = None
    for t in toks:
        if t.isspace() or t.startswith(("//", "/*")):
            continue
        if prev in types and C_IDENT.match(t) and t not in C_KEYWORDS and t != "main":
            out.append(t)
        prev = t
    return sorted(set(out))


def c_statement_points(toks):
    """Token indices just after a `;`, `{` or `}` inside a function body."""
    depth, out = 0, []
    for i, t in enumerate(toks):
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
        if depth >= 1 and t in (";", "{", "}") and i + 1 < len(toks):
            out.append(i + 1)
    return out


def c_mutate(rng, text):
    toks = c_tokens(text)
    real = [i for i, t in enumerate(toks) if not t.isspace() and not t.startswith(("//", "/*"))]
    how = rng.choices(["const", "op", "del-token", "dup-token", "del-line", "dup-line", "swap-lines",
                       "insert", "deep", "macro"], [3, 3, 1, 1, 1, 2, 1, 3, 2, 1])[0]
    if how == "const":
        ns = [i for i in real if C_INT.match(toks[i])]
        if ns:
            i = rng.choice(ns)
            old, toks[i] = toks[i], rng.choice(C_EDGE)
            return "".join(toks), f"constant {old} -> {toks[i]}"
    elif how == "op":
        os_ = [(i, g) for i in real for g in C_OPS if toks[i] in g]
        if os_:
            i, g = rng.choice(os_)
            old = toks[i]
            toks[i] = rng.choice([o for o in g if o != old] or g)
            return "".join(toks), f"operator {old} -> {toks[i]}"
    elif how in ("del-token", "dup-token") and real:
        i = rng.choice(real)
        old = toks[i]
        if how == "del-token":
            toks[i] = " "
        else:
            toks[i] = old + " " + old
        return "".join(toks), f"{how} {old}"
    elif how in ("del-line", "dup-line", "swap-lines"):
        lines = text.split("\n")
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        if how == "del-line":
            del lines[i]
        elif how == "dup-line":
            lines.insert(j, lines[i])
        else:
            lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines), f"{how} {i + 1} {j + 1}"
    elif how == "insert":
        pts = c_statement_points(toks)
        if pts:
            vs = c_variables(toks)
            snip = rng.choice(C_SNIPPETS)
            if "ID" in snip:
                snip = snip.replace("ID", rng.choice(vs) if vs else "fz_v")
                if not vs:
                    snip = "int fz_v = 0; " + snip
            i = rng.choice(pts)
            toks.insert(i, " " + snip + " ")
            return "".join(toks), f"insert `{snip}`"
    elif how == "deep":
        k = rng.choice([200, 1000, 3000, 10000])
        kind_ = rng.choice(["parens", "blocks", "ifs", "unary", "wide", "loops", "not"])
        ns = [i for i in real if C_INT.match(toks[i]) or (C_IDENT.match(toks[i]) and toks[i] not in C_KEYWORDS)]
        pts = c_statement_points(toks)
        if kind_ in ("parens", "unary", "wide", "not") and ns:
            i = rng.choice(ns)
            t = toks[i]
            toks[i] = {"parens": "(" * k + t + ")" * k, "unary": "- " * k + t,
                       "not": "!" * k + "(" + t + ")", "wide": "(" + t + " + 0" * k + ")"}[kind_]
            return "".join(toks), f"deep {kind_} x{k}"
        if kind_ in ("blocks", "ifs", "loops") and pts:
            i = rng.choice(pts)
            toks.insert(i, {"blocks": "{" * k + "}" * k, "ifs": "if (1) " * k + ";",
                            "loops": "while (0) " * k + ";"}[kind_])
            return "".join(toks), f"deep {kind_} x{k}"
    elif how == "macro":
        kind_ = rng.choice(["exp", "self", "mutual", "function", "if0", "include", "keyword", "open", "continuation", "undef"])
        ns = [i for i in real if C_INT.match(toks[i])]
        use = None
        if kind_ == "exp":
            n = rng.choice([10, 20, 30, 40])
            pre = "#define FZ0 1\n" + "".join("#define FZ%d (FZ%d + FZ%d)\n" % (j, j - 1, j - 1) for j in range(1, n + 1))
            use = "FZ%d" % n
        elif kind_ == "self":
            pre, use = "#define FZ (FZ + 1)\n", "FZ"
        elif kind_ == "mutual":
            pre, use = "#define FZA FZB\n#define FZB FZA\n", "FZA"
        elif kind_ == "function":
            pre, use = "#define FZF(x) ((x) + 1)\n", "FZF(1)"
        elif kind_ == "if0":
            pre = "#if 0\nthis is not C\n#endif\n#ifdef FZ\n#else\n#endif\n"
        elif kind_ == "include":
            pre = '#include "does-not-exist.h"\n#include <stdio.h>\n'
        elif kind_ == "keyword":
            pre = rng.choice(["#define int long\n", "#define while if\n", "#define return\n", "#define main fz_main\n"])
        elif kind_ == "open":
            pre, use = "#define OPEN (\n", "OPEN 1)"
        elif kind_ == "continuation":
            pre, use = "#define FZC 1 + \\\n 2\n", "FZC"
        else:
            pre = "#define FZU 1\n#undef FZU\n"
        if use and ns:
            toks[rng.choice(ns)] = use
        return pre + "".join(toks), f"macro {kind_}"
    return None, None


def gen_degenerate_c(rng):
    how = rng.choice(["empty", "minimal", "recursion", "loop", "calls", "nested-loops", "long", "switch", "mutual"])
    hdr = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n"
    if how == "empty":
        t = ""
    elif how == "minimal":
        t = rng.choice(["int main() {}", "int main(void) { return 0; }", "int main() { reach_error(); }", "main() {}"])
    elif how == "recursion":
        t = hdr + rng.choice(["int main() { return main(); }",
                              "int f(int x) { return f(x + 1); }\nint main() { if (f(0)) reach_error(); return 0; }",
                              "int f(int x) { if (x == 0) return 0; return 1 + f(x - 1); }\n"
                              "int main() { int n = __VERIFIER_nondet_int(); if (f(n) < 0) reach_error(); return 0; }"])
    elif how == "loop":
        t = hdr + rng.choice(["int main() { while (1) ; }", "int main() { for (;;) { } reach_error(); }",
                              "int main() { int x = 0; while (x >= 0) x++; reach_error(); }"])
    elif how == "calls":
        n = rng.choice([500, 3000])
        t = hdr + "".join("int f%d(int x) { return f%d(x) + 1; }\n" % (i, i + 1) for i in range(n))
        t += "int f%d(int x) { return x; }\nint main() { if (f0(0) != %d) reach_error(); return 0; }\n" % (n, n)
        t = hdr + "".join("int f%d(int x);\n" % i for i in range(n + 1)) + t[len(hdr):]
    elif how == "nested-loops":
        n = rng.choice([100, 1000])
        t = hdr + "int main() { int x = 0;\n" + "while (__VERIFIER_nondet_int()) {\n" * n + "x++;\n" + "}\n" * n
        t += "if (x < 0) reach_error(); return 0; }\n"
    elif how == "long":
        n = rng.choice([10**4, 10**5])
        t = hdr + "int main() { int x = 0;\n" + "x = x + 1;\n" * n + "if (x != %d) reach_error(); return 0; }\n" % n
    elif how == "switch":
        t = hdr + "int main() { switch (__VERIFIER_nondet_int()) { %s } return 0; }\n" % " ".join("case %d: return %d;" % (i, i) for i in range(1000))
    else:
        t = hdr + "int g(int);\nint f(int x) { return x <= 0 ? 0 : g(x - 1); }\nint g(int x) { return x <= 0 ? 1 : f(x - 1); }\n"
        t += "int main() { int n = __VERIFIER_nondet_int(); if (f(n) > 1) reach_error(); return 0; }\n"
    return t, f"degenerate c {how}"


# ---------------------------------------------------------------------------------------------
# Running commands.

class Result:
    def __init__(self, cmd, code, out, err, secs, killed, limit):
        self.cmd, self.code, self.out, self.err = cmd, code, out, err
        self.secs, self.killed, self.limit = secs, killed, limit

    def late(self):
        """Killed, or finished past the limit (a hang either way)."""
        return self.killed or self.secs > self.limit

    def first(self):
        return (self.out.splitlines() or [""])[0].strip()


def run(cmd, limit, memory_mb, kill_after=0.0):
    """Runs cmd in its own process group. A run is late past `limit` seconds; it is killed (with
    its group) at limit + kill_after, so that a late answer tells how late it was."""
    t0 = time.monotonic()
    for attempt in range(20):
        try:
            p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, start_new_session=True)
            break
        except OSError:  # the binary is being rebuilt (text file busy, or briefly missing)
            if attempt == 19:
                raise
            time.sleep(1)
    if memory_mb:
        try:
            lim = memory_mb * 1024 * 1024
            resource.prlimit(p.pid, resource.RLIMIT_AS, (lim, lim))
        except (OSError, ValueError):
            pass
    killed = False
    try:
        out, err = p.communicate(timeout=limit + kill_after)
    except subprocess.TimeoutExpired:
        killed = True
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
    return Result(cmd, p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"),
                  time.monotonic() - t0, killed, limit)


PANIC = re.compile(r"panicked at ([^\n]*?):(\d+):\d+:\n([^\n]*)")


def normalise(msg):
    return re.sub(r"\d+", "N", msg)[:100]


def classify(res, label, paths, answers=None, usage=False, unbounded=False):
    """(kind, signature) of a finding in res, or None. `usage`: a command line that may be
    rejected as such (not a FILE:LINE:COL error); `unbounded`: no time limit to hold it to."""
    err = res.err
    if res.late() and not unbounded:
        if res.killed:
            return "HANG", f"{label}: still running at {res.secs:.0f} s, killed"
        return "HANG", f"{label}: exit {res.code} after more than {res.limit:g} s"
    if res.killed:
        return None
    m = PANIC.search(err)
    if m:
        return "CRASH", f"{label}: panic at {m.group(1)}:{m.group(2)}: {normalise(m.group(3))}"
    if "stack overflow" in err or "overflowed its stack" in err:
        return "CRASH", f"{label}: stack overflow"
    if "fatal runtime error" in err:
        return "CRASH", f"{label}: fatal runtime error: {normalise(err.split('fatal runtime error', 1)[1].strip())}"
    if "memory allocation of" in err:
        return "CRASH", f"{label}: memory allocation failed (--memory limit)"
    if res.code < 0:
        try:
            name = signal.Signals(-res.code).name
        except ValueError:
            name = str(-res.code)
        return "CRASH", f"{label}: killed by {name}"
    if res.code not in (0, 1, 2, 3):
        return "CRASH", f"{label}: exit status {res.code}"
    if usage:
        return None
    if res.code == 2:
        first = (err.splitlines() or [""])[0]
        if not any(first.startswith(p + ":") for p in paths):
            return "BAD-ERROR", f"{label}: exit 2, stderr starts {normalise(first)[:50]!r}"
        if not res.out.startswith('(error "'):
            return "BAD-ERROR", f"{label}: exit 2, stdout is not (error \"...\")"
    elif answers and res.code == 0 and res.first() not in answers:
        return "BAD-ERROR", f"{label}: first line {normalise(res.first())[:40]!r}"
    return None


def z3_script(text):
    """The assertions of a script Hornbeam accepted, for Z3: logic HORN, everything before the
    first (exit), one check-sat at the end (whatever Hornbeam makes of commands past a
    check-sat, it answers for all the assertions it read)."""
    cmds = parse_sexps(text.lstrip("\ufeff"))
    if cmds is None or any(not isinstance(c, list) or not c for c in cmds):
        return None
    if ["exit"] in cmds:
        cmds = cmds[:cmds.index(["exit"])]
    keep = [c for c in cmds if c[0] not in ("check-sat", "exit", "get-model", "set-option", "set-logic", "set-info")]
    return show_script([["set-logic", "HORN"]] + keep + [["check-sat"]])


def z3_answer(res):
    lines = [l.strip() for l in res.out.splitlines()]
    if res.killed or any(l.startswith("(error") for l in lines):
        return None
    ans = [l for l in lines if l in ("sat", "unsat", "unknown", "timeout")]
    return ans[0] if len(ans) == 1 else None


def mutate_model(rng, text):
    cmds = parse_sexps(text)
    if cmds is None:
        return text, "model unparsable"
    defs = [c for c in cmds if isinstance(c, list) and len(c) == 5 and c[0] == "define-fun"]
    how = rng.choice(["true", "false", "drop", "numeral", "flip", "arity", "rename", "sort", "bytes"])
    if how in ("true", "false") and defs:
        rng.choice(defs)[4] = how
    elif how == "drop" and defs:
        cmds.remove(rng.choice(defs))
    elif how == "arity" and defs:
        d = rng.choice(defs)
        d[2] = d[2][:-1] if d[2] and rng.random() < 0.5 else d[2] + [["fz", "Int"]]
    elif how == "rename" and defs:
        rng.choice(defs)[1] = rng.choice(["fz_unknown", "|%s|" % defs[0][1].strip("|")])
    elif how == "sort" and defs:
        rng.choice(defs)[3] = rng.choice(["Int", "Real"])
    elif how in ("numeral", "flip") and defs:
        wrapped = [["assert", d[4]] for d in defs]
        (m_numeral if how == "numeral" else m_compare)(rng, wrapped)
        for d, w in zip(defs, wrapped):
            d[4] = w[1]
    out = show_script(cmds)
    if how == "bytes":
        data, what = damage(rng, out.encode())
        return data.decode("utf-8", "replace"), "model " + what
    return out, "model " + how


ODD_TIMEOUTS = ["inf", "nan", "1e400", "0", "1e-9", "-0", "18446744073709551616", "abc", "", "1e10", "-5"]
BOUNDED = {"0", "1e-9", "-0", "-5", "abc", "", "nan", "2"}  # values that must not make a run last longer


class Fuzzer:
    def __init__(self, args, seeds_smt, seeds_c, z3):
        self.a, self.smt, self.c, self.z3 = args, seeds_smt, seeds_c, z3
        self.lock = threading.Lock()
        self.stats = dict(runs=0, calls=0, z3=0, compared=0, CRASH=0, HANG=0, DISAGREE=0, **{"BAD-ERROR": 0})
        self.findings = []  # (case, kind, signature, saved path or "-")
        self.per_sig = {}
        self.out = Path(args.out)
        self.log = open(args.log, "w") if args.log else None
        self.stamp = binary_stamp(args.bin)

    # -- input generation ---------------------------------------------------------------------
    def generate(self, rng):
        """(text or bytes, extension, [descriptions], seed name)."""
        r = rng.random()
        if r < 0.04:
            t, d = gen_degenerate_smt(rng)
            return t, "smt2", [d], "-"
        if r < 0.07:
            t, d = gen_degenerate_c(rng)
            return t, "c", [d], "-"
        if r < 0.27 or (r < 0.70 and not self.smt):
            t = gen_horn(rng)
            desc = ["random Horn system"]
            if rng.random() < 0.3:
                s = parse_sexps(t)
                for _ in range(rng.randint(1, 2)):
                    d = pick(rng, SMT_MUTATIONS)(rng, s)
                    if d:
                        desc.append(d)
                t = show_script(s)
            return self.maybe_damage(rng, t, desc, 0.03), "smt2", desc, "-"
        if r < 0.70:
            name, t = rng.choice(self.smt)
            desc = []
            s = parse_sexps(t)
            if s is not None:
                for _ in range(min(4, 1 + int(rng.expovariate(1.0)))):
                    d = pick(rng, SMT_MUTATIONS)(rng, s)
                    if d:
                        desc.append(d)
                t = show_script(s)
            return self.maybe_damage(rng, t, desc, 0.08 if s is not None else 1.0), "smt2", desc, name
        name, t = rng.choice(self.c)
        desc = []
        for _ in range(min(4, 1 + int(rng.expovariate(1.2)))):
            nt, d = c_mutate(rng, t)
            if nt is not None:
                t = nt
                desc.append(d)
        return self.maybe_damage(rng, t, desc, 0.06), "c", desc, name

    @staticmethod
    def maybe_damage(rng, text, desc, p):
        if rng.random() >= p:
            return text
        data, d = damage(rng, text.encode())
        desc.append(d)
        return data

    # -- one run ------------------------------------------------------------------------------
    def case(self, i):
        rng = random.Random("%d/%d" % (self.a.seed, i))
        try:
            body, ext, desc, seed_name = self.generate(rng)
        except Exception as e:  # a mutation's own bug must not end a long run
            print("fuzz: case %d: the generator failed (%r); case skipped" % (i, e), file=sys.stderr)
            return i, b"", "smt2", ["generator failed"], "-", [], {}
        data = body if isinstance(body, bytes) else body.encode("utf-8", "surrogateescape")
        with tempfile.TemporaryDirectory(prefix="hb-fuzz-") as tmp:
            path = os.path.join(tmp, "case-%d.%s" % (i, ext))
            with open(path, "wb") as f:
                f.write(data)
            results = []  # (Result, finding or None)
            if ext == "c":
                self.run_c(rng, path, tmp, results)
            else:
                self.run_smt(rng, path, tmp, results)
            extra = {}
            for name in os.listdir(tmp):
                if not name.startswith("case-"):
                    try:
                        extra[name] = Path(tmp, name).read_bytes()
                    except OSError:
                        pass
        return i, data, ext, desc, seed_name, results, extra

    def hb(self, args, limit=None):
        self.stats_inc("calls")
        return run([self.a.bin] + args, limit or self.a.timeout + self.a.grace, self.a.memory, self.a.kill_after)

    def structural(self, args, path):
        """`print`, `analyze` and `facts` take no time limit: their contract is time linear in
        the input. They are held to the run's limit plus UNBOUNDED_SECS_PER_MB for each
        megabyte of input, so a 20,000-predicate chain may take a few seconds but a quadratic
        pass over it is still caught."""
        mb = os.path.getsize(path) / 1e6
        return self.hb(args, self.a.timeout + self.a.grace + UNBOUNDED_SECS_PER_MB * mb)

    def stats_inc(self, key, n=1):
        with self.lock:
            self.stats[key] += n

    def run_c(self, rng, path, tmp, results):
        t = self.fmt_t()
        flags = []
        for f, p in (("--invariants", 0.2), ("--trace", 0.2), ("--no-testing", 0.15), ("--emit-chc", 0.1)):
            if rng.random() < p:
                flags.append(f)
        if rng.random() < 0.2:
            flags += ["--engine", rng.choice(["auto", "bmc", "slicing", "samples", "cegar", "pdr", "bmc,pdr", "slicing,samples,cegar"])]
        odd = rng.random() < 0.03
        tflag = ["--timeout", rng.choice(ODD_TIMEOUTS)] if odd else ["--timeout", t]
        res = self.hb(["verify", path] + tflag + flags)
        answers = None if "--emit-chc" in flags else ("safe", "unsafe", "unknown")
        results.append((res, classify(res, "verify", [path], answers, odd, odd and tflag[1] not in BOUNDED)))
        # `unknown` alone: the time limit answered before the clauses were printed (slow
        # encodings are issue 57's); there is nothing to read back.
        if "--emit-chc" in flags and res.code == 0 and not res.killed and res.first() != "unknown":
            self.reread(res.out, tmp, "verify --emit-chc", results)

    def reread(self, text, tmp, what, results):
        """`print` of Hornbeam's own output: it must be read back (never exit 2)."""
        p = os.path.join(tmp, "printed.smt2")
        with open(p, "w") as f:
            f.write(text)
        res = self.structural(["print", p], p)
        f = classify(res, "print of %s output" % what, [p])
        if f is None and res.code == 2:
            first = (res.err.splitlines() or [""])[0]
            f = ("DISAGREE", "%s output rejected by the parser: %s" % (what, normalise(first.split(": ", 1)[-1])[:60]))
        results.append((res, f))

    def fmt_t(self):
        return "%g" % self.a.timeout

    def run_smt(self, rng, path, tmp, results):
        t = self.fmt_t()
        r = rng.random()
        if r < 0.62:
            flags = []
            if rng.random() < 0.25:
                flags += ["--engine", rng.choice(["auto", "bmc", "slicing", "samples", "cegar", "pdr", "bmc,pdr", "slicing,samples,cegar"])]
                if flags[-1] == "slicing" and rng.random() < 0.5:
                    flags += ["--weakening", rng.choice(["cex", "syntactic"])]
                if flags[-1] == "cegar" and rng.random() < 0.5:
                    flags += ["--cex-shape", rng.choice(["mixed", "uniform", "tree"])]
            for f, p in (("--no-preprocess", 0.1), ("--stats", 0.1), ("--cex", 0.15), ("--model", 0.15),
                         ("--deterministic", 0.05)):
                if rng.random() < p:
                    flags.append(f)
            if rng.random() < 0.1:
                flags += ["--threads", "2"]
            res = self.hb(["solve", path, "--timeout", t] + flags)
            f = classify(res, "solve", [path], ("sat", "unsat", "unknown"))
            results.append((res, f))
            if f is None and res.code == 0 and res.first() in ("sat", "unsat"):
                self.compare(path, tmp, res, results)
        elif r < 0.74:
            res = self.hb(["solve", path, "--timeout", t, "--model"])
            f = classify(res, "solve --model", [path], ("sat", "unsat", "unknown"))
            results.append((res, f))
            if f is None and res.first() == "sat":
                own = rng.random() < 0.3
                model, what = (res.out, "model as printed") if own else mutate_model(rng, res.out)
                mp = os.path.join(tmp, "model.txt")
                with open(mp, "w") as fh:
                    fh.write(model)
                cres = self.hb(["check", path, mp, "--timeout", t])
                cf_ = classify(cres, "check", [path, mp], ("valid", "invalid", "unknown"))
                if cf_ is None and own and cres.code == 1:
                    cf_ = ("DISAGREE", "check rejects the model solve printed")
                results.append((cres, cf_))
        elif r < 0.84:
            flags = rng.choice([[], [], ["--preprocessed"], ["--split-bools"], ["--preprocessed", "--split-bools"]])
            res = self.structural(["print", path] + flags, path)
            f = classify(res, "print", [path])
            results.append((res, f))
            if f is None and res.code == 0:
                self.reread(res.out, tmp, "print " + " ".join(flags), results)
        elif r < 0.94:
            flags = rng.choice([[], ["--json"], ["--dot"], ["--stats"]])
            res = self.structural(["analyze", path] + flags, path)
            results.append((res, classify(res, "analyze", [path])))
        elif r < 0.97:
            res = self.structural(["facts", path, "--out", os.path.join(tmp, "facts")], path)
            results.append((res, classify(res, "facts", [path])))
        else:
            # (command, usage: clap may reject it as a command line rather than name a file)
            cmd, usage = rng.choice([(["solve", path, "--timeout", rng.choice(ODD_TIMEOUTS)], True),
                                     (["check", path, path, "--timeout", rng.choice(ODD_TIMEOUTS)], True),
                                     (["verify", path, "--timeout", rng.choice(ODD_TIMEOUTS)], True),
                                     (["solve", path, "--timeout", t, "--engine", rng.choice(["nope", "", "AUTO", "bmc,", "bmc,auto"])], True),
                                     (["solve", path, path, "--timeout", t], True),
                                     (["solve", path + ".missing", "--timeout", t], False),
                                     (["solve", tmp, "--timeout", t], False),
                                     (["check", path, path + ".missing", "--timeout", t], False)])
            res = self.hb(cmd)
            value = cmd[cmd.index("--timeout") + 1]
            results.append((res, classify(res, "odd options", [path, tmp, path + ".missing"], None, usage, value not in BOUNDED)))

    def compare(self, path, tmp, res, results):
        if not self.z3:
            return
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8", "replace")
        script = z3_script(text)
        if script is None:
            return
        zp = os.path.join(tmp, "z3-input.smt2")
        with open(zp, "w") as fh:
            fh.write(script)
        self.stats_inc("z3")
        zres = run([self.z3, "-T:%d" % max(1, math.ceil(self.a.timeout)), zp], self.a.timeout + self.a.grace, self.a.memory)
        z = z3_answer(zres)
        if z in ("sat", "unsat"):
            self.stats_inc("compared")
            if z != res.first():
                results.append((zres, ("DISAGREE", "hornbeam %s, z3 %s" % (res.first(), z))))

    # -- recording ----------------------------------------------------------------------------
    def record(self, i, data, ext, desc, seed_name, results, extra):
        with self.lock:
            self.stats["runs"] += 1
            stamp = binary_stamp(self.a.bin)
            if stamp != self.stamp:
                print("fuzz: note: %s changed before run %d (%s, was %s)" % (self.a.bin, i, stamp, self.stamp), file=sys.stderr, flush=True)
                self.stamp = stamp
            if self.log:
                for r, f in results:
                    cmd = " ".join(os.path.basename(str(c)) if os.sep in str(c) else str(c) for c in r.cmd)
                    status = "killed" if r.killed else str(r.code)
                    fields = [str(i), os.path.basename(seed_name), "; ".join(desc)[:200], cmd[:200], status,
                              r.first()[:60], "%.2f" % r.secs, f[0] if f else ""]
                    self.log.write("\t".join(re.sub(r"\s", " ", x) for x in fields) + "\n")
                self.log.flush()
            for kind_, sig in [f for _, f in results if f]:
                if kind_ == "HANG":  # no message to go by: the kind of input is the best guess at a cause
                    sig += " [%s]" % ", ".join(sorted({" ".join(d.split()[:3 if d.startswith("degenerate c ") else 2]) for d in desc})) if desc else " [seed as is]"
                self.stats[kind_] += 1
                n = self.per_sig.get(sig, 0) + 1
                self.per_sig[sig] = n
                saved = "-"
                if n <= self.a.keep:
                    saved = self.save(i, data, ext, desc, seed_name, results, extra, kind_, sig)
                self.findings.append((i, kind_, sig, saved))
                print("fuzz: %s run %d: %s%s" % (kind_, i, sig, "" if saved == "-" else " -> " + saved), file=sys.stderr, flush=True)

    def save(self, i, data, ext, desc, seed_name, results, extra, kind_, sig):
        self.out.mkdir(parents=True, exist_ok=True)
        stem = "%s-s%d-%06d" % (kind_.lower(), self.a.seed, i)
        inp = self.out / ("%s.%s" % (stem, ext))
        inp.write_bytes(data[: 4 << 20])
        extra_paths = {}
        for name, content in extra.items():
            if name in ("model.txt", "z3-input.smt2", "printed.smt2"):
                p = self.out / ("%s.%s" % (stem, name))
                p.write_bytes(content[: 4 << 20])
                extra_paths[name] = str(p)
        lines = ["finding: %s: %s" % (kind_, sig), "run: %d of --seed %d" % (i, self.a.seed),
                 "binary: %s (%s)" % (self.a.bin, binary_stamp(self.a.bin)),
                 "seed file: %s" % seed_name, "mutations: %s" % ("; ".join(desc) or "none"),
                 "regenerate: scripts/fuzz.py --seed %d --case %d%s" % (
                     self.a.seed, i, "".join(" --corpus " + c for c in self.a.corpus)), ""]
        for r, f in results:
            cmd = []
            for c in r.cmd:
                c = str(c)
                base = os.path.basename(c)
                if base.startswith("case-"):
                    c = str(inp)
                elif base in extra_paths:
                    c = extra_paths[base]
                cmd.append(c)
            lines += ["$ " + " ".join(shlex.quote(c) for c in cmd),
                      "status: %s after %.2f s (limit %g s)%s" % ("killed" if r.killed else r.code, r.secs, r.limit,
                                                    "  <-- %s: %s" % f if f else ""),
                      "--- stdout ---", r.out[:20000], "--- stderr ---", r.err[:20000], ""]
        (self.out / (stem + ".txt")).write_text("\n".join(lines))
        return str(inp)


def binary_stamp(path):
    try:
        st = os.stat(path)
    except OSError:
        return "missing"
    return "%d bytes, modified %s" % (st.st_size, time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(st.st_mtime)))


def load_seeds(dirs):
    smt, c = [], []
    for d in dirs:
        d = Path(d)
        if not d.is_dir():
            print("fuzz: no directory %s" % d, file=sys.stderr)
            continue
        for p in sorted(d.rglob("*")):
            if p.suffix in (".smt2", ".c") and p.is_file():
                text = p.read_bytes().decode("utf-8", "replace")
                (smt if p.suffix == ".smt2" else c).append((str(p), text))
    return smt, c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--runs", type=int)
    ap.add_argument("--duration", type=float, help="seconds (default when --runs is not given: 60)")
    ap.add_argument("--timeout", type=float, default=2.0, help="passed to hornbeam as --timeout")
    ap.add_argument("--grace", type=float, default=3.0, help="a run still going at timeout + grace is a hang")
    ap.add_argument("--kill-after", type=float, default=10.0,
                    help="a hung run is killed this long past timeout + grace (telling late answers from stuck runs)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--bin", default=str(DEFAULT_BIN))
    ap.add_argument("--z3", help="reference solver (default: the build's, see scripts/z3path.py)")
    ap.add_argument("--corpus", action="append", default=[], help="more seed files (repeatable)")
    ap.add_argument("--out", default=str(ROOT / "fuzz-out"))
    ap.add_argument("--keep", type=int, default=3, help="findings saved per distinct signature")
    ap.add_argument("--memory", type=int, default=8192, help="address-space limit per run, MB")
    ap.add_argument("--log", help="write one TSV line per command run (run, seed, mutations, command, status, answer, seconds, finding)")
    ap.add_argument("--case", type=int, action="append", help="run only these run numbers")
    ap.add_argument("--allow-findings", action="store_true", help="exit 0 even with findings")
    a = ap.parse_args()

    a.bin = str(Path(a.bin).resolve())
    if not Path(a.bin).exists():
        if Path(a.bin) == DEFAULT_BIN:
            subprocess.run(["cargo", "build", "--release"], cwd=ROOT, check=True)
        else:
            sys.exit("fuzz: no binary %s" % a.bin)
    z3 = a.z3
    if not z3:
        z3 = z3_binary() and str(z3_binary())
    if z3 and not Path(z3).exists():
        sys.exit("fuzz: no Z3 at %s" % z3)
    z3 = z3 and str(Path(z3).resolve())
    if not z3:
        print("fuzz: no Z3 found: the comparison with Z3 is off", file=sys.stderr)

    smt, c = load_seeds([ROOT / "tests" / "data"] + a.corpus)
    if not c:
        sys.exit("fuzz: no C seed files")
    print("fuzz: %d SMT-LIB and %d C seed files; binary %s; z3 %s" % (len(smt), len(c), a.bin, z3 or "none"), file=sys.stderr)
    stamp = binary_stamp(a.bin)
    fz = Fuzzer(a, smt, c, z3)

    if a.case:
        cases = iter(a.case)
    elif a.runs is not None:
        cases = iter(range(a.runs))
    else:
        cases = iter(range(10**12))
    duration = a.duration if a.duration is not None else (None if a.runs is not None or a.case else 60.0)
    t0 = time.monotonic()
    last = t0
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        pending = set()
        stopping = False
        while True:
            while not stopping and len(pending) < a.jobs:
                if duration is not None and time.monotonic() - t0 >= duration:
                    stopping = True
                    break
                i = next(cases, None)
                if i is None:
                    stopping = True
                    break
                pending.add(pool.submit(fz.case, i))
            if not pending:
                break
            done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for fut in done:
                fz.record(*fut.result())
            if time.monotonic() - last > 60:
                last = time.monotonic()
                print("%s after %.0f s" % (summary(fz.stats), last - t0), file=sys.stderr, flush=True)

    s = fz.stats
    if binary_stamp(a.bin) != stamp:
        print("fuzz: warning: %s changed during the run (%s, now %s)" % (a.bin, stamp, binary_stamp(a.bin)), file=sys.stderr)
    if fz.findings:
        fz.out.mkdir(parents=True, exist_ok=True)
        with open(fz.out / ("findings-seed%d.tsv" % a.seed), "w") as f:
            f.write("run\tkind\tsignature\tsaved\n")
            for row in sorted(fz.findings):
                f.write("%d\t%s\t%s\t%s\n" % row)
        print("\nfindings by signature (count, kind, signature, first saved input):")
        firsts = {}
        for i, k, sig, saved in sorted(fz.findings):
            firsts.setdefault(sig, (k, saved if saved != "-" else None))
        for sig, n in sorted(fz.per_sig.items(), key=lambda kv: (-kv[1], kv[0])):
            print("  %5d  %-9s %s  %s" % (n, firsts[sig][0], sig, firsts[sig][1] or ""))
    print("fuzz: %d hornbeam calls, %d Z3 runs, %d compared with a definite Z3 answer, %.0f s"
          % (s["calls"], s["z3"], s["compared"], time.monotonic() - t0))
    print(summary(s))
    bad = s["CRASH"] + s["HANG"] + s["DISAGREE"]
    sys.exit(0 if a.allow_findings or not bad else 1)


def summary(s):
    return "fuzz: %d runs, %d crashes, %d hangs, %d disagreements, %d bad errors" % (
        s["runs"], s["CRASH"], s["HANG"], s["DISAGREE"], s["BAD-ERROR"])


if __name__ == "__main__":
    main()
