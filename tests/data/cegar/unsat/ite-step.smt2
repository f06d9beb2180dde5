; As sat/ite-step.smt2, but y grows by 1 on both branches: x = y fails after a 2-step.
(set-logic HORN)
(declare-fun inv (Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (c Int)) (=> (and (= x 0) (= y 0)) (inv x y c))))
(assert (forall ((x Int) (y Int) (c Int) (x1 Int) (y1 Int) (c1 Int))
  (=> (and (inv x y c) (= x1 (ite (> c 0) (+ x 1) (+ x 2))) (= y1 (+ y 1)))
      (inv x1 y1 c1))))
(assert (forall ((x Int) (y Int) (c Int)) (=> (and (inv x y c) (not (= x y))) false)))
(check-sat)
