; A recursive identity, id(n) = id(n - 1) + 1, asked for id(n) = 150: the call chain of
; n = 150 (150 calls deep, two predicates per call: 300 unrollings).
(set-logic HORN)
(declare-fun id (Int Int) Bool)
(declare-fun call (Int Int) Bool)
(assert (forall ((n Int)) (=> (= n 0) (id n 0))))
(assert (forall ((n Int) (r Int)) (=> (and (id (- n 1) r) (> n 0)) (call n r))))
(assert (forall ((n Int) (r Int)) (=> (call n r) (id n (+ r 1)))))
(assert (forall ((n Int) (r Int)) (=> (and (id n r) (= r 150)) false)))
(check-sat)
