; Two loops in sequence: count x up from 0 to 5 (p), then count y down from x to 0 (q).
; Invariants: p(x) = 0 <= x <= 5; q(x, y) = 0 <= y <= x.
(set-logic HORN)
(declare-fun p (Int) Bool)
(declare-fun q (Int Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (p x))))
(assert (forall ((x Int)) (=> (and (p x) (< x 5)) (p (+ x 1)))))
(assert (forall ((x Int)) (=> (and (p x) (>= x 5)) (q x x))))
(assert (forall ((x Int) (y Int)) (=> (and (q x y) (> y 0)) (q x (- y 1)))))
(assert (forall ((x Int) (y Int)) (=> (and (q x y) (< y 0)) false)))
(check-sat)
