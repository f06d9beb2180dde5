; A conjunction in the head: one assertion, two clauses.
; p counts 0..5; q records every x < 5 seen by p.
; Invariants: p(x) = 0 <= x <= 5; q(x) = 0 <= x <= 4.
(set-logic HORN)
(declare-fun p (Int) Bool)
(declare-fun q (Int) Bool)
(assert (p 0))
(assert (forall ((x Int)) (=> (and (p x) (< x 5)) (and (p (+ x 1)) (q x)))))
(assert (forall ((x Int)) (=> (and (q x) (>= x 5)) false)))
(check-sat)
