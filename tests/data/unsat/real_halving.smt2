; Real: x := 1; loop x := x / 2; assert x >= 0.2. Fails at x = 0.125 (3 steps).
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (inv 1.0))
(assert (forall ((x Real)) (=> (inv x) (inv (/ x 2.0)))))
(assert (forall ((x Real)) (=> (and (inv x) (< x 0.2)) false)))
(check-sat)
