; As sat/mode_switch.smt2, but the query claims x reaches 11 before y grows.
; Failing run: 10 steps of x (x = 10), one step of y (y = 1, x = 10 < 11).
(set-logic HORN)
(declare-fun inv (Real Real) Bool)
(assert (forall ((x Real) (y Real))
  (=> (and (= x 0.0) (= y 0.0)) (inv x y))))
(assert (forall ((x Real) (y Real) (x1 Real) (y1 Real))
  (=> (and (inv x y)
           (or (and (< x 10.0) (= x1 (+ x 1.0)) (= y1 y))
               (and (>= x 10.0) (= x1 x) (= y1 (+ y 1.0)))))
      (inv x1 y1))))
(assert (forall ((x Real) (y Real))
  (=> (and (inv x y) (> y 0.0) (< x 11.0)) false)))
(check-sat)
