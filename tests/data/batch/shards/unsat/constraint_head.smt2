; A fact that violates the query at once; the query is written with a constraint head.
(set-logic HORN)
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (and (> x 5) (< x 7)) (p x))))
(assert (forall ((x Int)) (=> (p x) (not (= x 6)))))
(check-sat)
