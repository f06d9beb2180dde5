; A counter reaches 5 after five steps: the base case at depth 5 finds it.
(set-logic HORN)
(declare-fun cnt (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (cnt x))))
(assert (forall ((x Int) (x1 Int)) (=> (and (cnt x) (= x1 (+ x 1))) (cnt x1))))
(assert (forall ((x Int) (y Int)) (=> (and (cnt x) (= y (* 2 x)) (= y 10)) false)))
(check-sat)
