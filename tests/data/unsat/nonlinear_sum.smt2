; Non-linear: small(x) for 0 <= x <= 3; big(x + y) for small x, y; assert big(z) -> z < 5.
; Fails with 3 + 2 = 5.
(set-logic HORN)
(declare-fun small (Int) Bool)
(declare-fun big (Int) Bool)
(assert (small 0))
(assert (forall ((x Int)) (=> (and (small x) (< x 3)) (small (+ x 1)))))
(assert (forall ((x Int) (y Int)) (=> (and (small x) (small y)) (big (+ x y)))))
(assert (forall ((z Int)) (=> (and (big z) (>= z 5)) false)))
(check-sat)
