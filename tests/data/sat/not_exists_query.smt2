; The query in the (not (exists ...)) form.
; x := 0; loop x := x + 2; assert x >= 0. Invariant: x >= 0.
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int)) (=> (inv x) (inv (+ x 2)))))
(assert (not (exists ((x Int)) (and (inv x) (< x 0)))))
(check-sat)
