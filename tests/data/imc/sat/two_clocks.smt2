; Two clocks that advance together by any positive amount and reset together: they stay equal.
; Invariant: x = y (or the property x <= y + 1 itself, which is inductive too); the clocks
; advance by a step of any size, so an unrolling's states are never finitely many.
(set-logic HORN)
(declare-fun inv (Real Real) Bool)
(assert (forall ((x Real) (y Real)) (=> (and (= x 0.0) (= y 0.0)) (inv x y))))
(assert (forall ((x Real) (y Real) (d Real) (x1 Real) (y1 Real))
  (=> (and (inv x y)
           (or (and (> d 0.0) (= x1 (+ x d)) (= y1 (+ y d)))
               (and (= x1 0.0) (= y1 0.0))))
      (inv x1 y1))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x y) (> x (+ y 1.0))) false)))
(check-sat)
