; The shift register again, in a first location, then a second one that keeps the register's
; last stage: `z >= 0` there. Read as one transition system with a location per predicate,
; the property is 4-inductive: the last stage entering the second location is an input of
; three steps before.
(set-logic HORN)
(declare-fun reg (Int Int Int) Bool)
(declare-fun out (Int) Bool)
(assert (forall ((x Int) (y Int) (z Int))
  (=> (and (= x 0) (= y 0) (= z 0)) (reg x y z))))
(assert (forall ((x Int) (y Int) (z Int) (i Int) (x1 Int) (y1 Int) (z1 Int))
  (=> (and (reg x y z) (>= i 0) (= x1 i) (= y1 x) (= z1 y)) (reg x1 y1 z1))))
(assert (forall ((x Int) (y Int) (z Int) (w Int))
  (=> (and (reg x y z) (= w z)) (out w))))
(assert (forall ((w Int) (w1 Int)) (=> (and (out w) (= w1 w)) (out w1))))
(assert (forall ((w Int)) (=> (and (out w) (< w 0)) false)))
(check-sat)
