; x starts at 0 and steps by 2: it is never 7. Models read from other solvers may define
; P by an existential (x = 2k for some k >= 0), which the validator eliminates first.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x 2))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (= x 7)) false)))
(check-sat)
