; A loop whose step is an ite (a disjunction): x grows by 1 or 2, y by the same; x = y always.
; Refinement must refute both branches, not only the one a model happened to pick.
(set-logic HORN)
(declare-fun inv (Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (c Int)) (=> (and (= x 0) (= y 0)) (inv x y c))))
(assert (forall ((x Int) (y Int) (c Int) (x1 Int) (y1 Int) (c1 Int))
  (=> (and (inv x y c) (= x1 (ite (> c 0) (+ x 1) (+ x 2))) (= y1 (ite (> c 0) (+ y 1) (+ y 2))))
      (inv x1 y1 c1))))
(assert (forall ((x Int) (y Int) (c Int)) (=> (and (inv x y c) (not (= x y))) false)))
(check-sat)
