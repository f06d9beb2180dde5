; x := 0; while (x < 10) x++; assert x < 10. Fails when the loop exits with x = 10.
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int)) (=> (and (inv x) (< x 10)) (inv (+ x 1)))))
(assert (forall ((x Int)) (=> (and (inv x) (>= x 10)) false)))
(check-sat)
