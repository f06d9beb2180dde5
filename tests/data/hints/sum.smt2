; x counts up from 0 to 10 while y counts down from 10: y is never negative. Invariant:
; x + y = 10 and x <= 10, which the gallery's hint rules propose (a sum from two opposite
; steps, a bound one past a guard).
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 10)) (inv x y))))
(assert (forall ((x Int) (y Int) (x2 Int) (y2 Int))
  (=> (and (inv x y) (< x 10) (= x2 (+ x 1)) (= y2 (- y 1))) (inv x2 y2))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (< y 0)) false)))
(check-sat)
