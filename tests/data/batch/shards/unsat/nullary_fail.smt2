; A nullary error predicate: reaching x = 5 sets fail; fail is a query.
(set-logic HORN)
(declare-fun inv (Int) Bool)
(declare-fun fail () Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int)) (=> (inv x) (inv (+ x 1)))))
(assert (forall ((x Int)) (=> (and (inv x) (= x 5)) fail)))
(assert (=> fail false))
(check-sat)
