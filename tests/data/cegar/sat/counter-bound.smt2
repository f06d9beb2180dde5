; x = 0; while (x < 10) x++; assert(x <= 10). The small invariant is x <= 10; uniform
; unfoldings alone labelled each copy with its value and needed 11 iterations.
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (< x 10) (= y (+ x 1))) (inv y))))
(assert (forall ((x Int)) (=> (and (inv x) (> x 10)) false)))
(check-sat)
