; c grows once x has passed 5; at x >= 10, c <= 1 is impossible. The step is an ite on the
; state: one model picks one branch, and a refinement of that branch alone does not refute the
; other (the first version then stopped with "refinement found no new predicate").
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (c Int)) (=> (and (= x 0) (= c 1)) (inv x c))))
(assert (forall ((x Int) (c Int) (x1 Int) (c1 Int))
  (=> (and (inv x c) (= x1 (+ x 1)) (= c1 (ite (>= x 5) (+ c 1) c))) (inv x1 c1))))
(assert (forall ((x Int) (c Int)) (=> (and (inv x c) (>= x 10) (<= c 1)) false)))
(check-sat)
