; As sum.smt2, through a predicate `mid` that preprocessing inlines, with an argument z that
; never matters (removed as dead). Invariant of inv: x + y = 10 and x <= 10.
(set-logic HORN)
(declare-fun inv (Int Int Int) Bool)
(declare-fun mid (Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (= x 0) (= y 10)) (inv x y z))))
(assert (forall ((x Int) (y Int) (z Int))
  (=> (and (inv x y z) (< x 10)) (mid (+ x 1) (- y 1) (+ z 1)))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (mid x y z) (inv x y z))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (inv x y z) (< y 0)) false)))
(check-sat)
