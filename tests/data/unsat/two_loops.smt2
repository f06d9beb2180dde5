; Two loops in sequence: up from 0 to 3, then down by 2 while positive; assert y >= 0.
; 3, 1, -1 fails.
(set-logic HORN)
(declare-fun up (Int) Bool)
(declare-fun down (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (up x))))
(assert (forall ((x Int)) (=> (and (up x) (< x 3)) (up (+ x 1)))))
(assert (forall ((x Int)) (=> (and (up x) (= x 3)) (down x))))
(assert (forall ((y Int)) (=> (and (down y) (> y 0)) (down (- y 2)))))
(assert (forall ((y Int)) (=> (and (down y) (< y 0)) false)))
(check-sat)
