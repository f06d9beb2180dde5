; A counter from 0 up by one while a second counter goes down from 200: the query needs
; x = 200, reached after 200 steps (the failing run: x = 0, 1, ..., 200).
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 200)) (inv x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
  (=> (and (inv x y) (> y 0) (= x1 (+ x 1)) (= y1 (- y 1))) (inv x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (>= x 200)) false)))
(check-sat)
