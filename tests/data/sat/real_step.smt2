; Real arithmetic: x := 0.0; while (x < 1) x := x + 1/2; assert x <= 1.5.
; Invariant: 0 <= x <= 1.5.
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (forall ((x Real)) (=> (= x 0.0) (inv x))))
(assert (forall ((x Real)) (=> (and (inv x) (< x 1.0)) (inv (+ x (/ 1 2))))))
(assert (forall ((x Real)) (=> (and (inv x) (> x 1.5)) false)))
(check-sat)
