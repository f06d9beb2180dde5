; Real and Int together: x grows by 1.5 per step, k counts steps; assert x < 1.5 * k once k >= 2.
; Fails at k = 2, x = 3.0.
(set-logic HORN)
(declare-fun inv (Real Int) Bool)
(assert (forall ((x Real) (k Int)) (=> (and (= x 0.0) (= k 0)) (inv x k))))
(assert (forall ((x Real) (k Int)) (=> (inv x k) (inv (+ x 1.5) (+ k 1)))))
(assert (forall ((x Real) (k Int))
  (=> (and (inv x k) (>= k 2) (>= x (* 1.5 (to_real k)))) false)))
(check-sat)
