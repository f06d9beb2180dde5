; x starts at 0 and grows by 2 while y grows by 1: x is never 7 and y never negative. A hint
; states the parity of x; PDR, seeded with it, needs only the bound on y.
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (inv x y))))
(assert (forall ((x Int) (y Int) (x2 Int) (y2 Int))
  (=> (and (inv x y) (= x2 (+ x 2)) (= y2 (+ y 1))) (inv x2 y2))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (or (= x 7) (< y 0))) false)))
(check-sat)
