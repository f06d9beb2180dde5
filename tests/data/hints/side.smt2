; A counter from 0 that stays non-negative; clause 2 derives `side`, which reaches no query:
; outside the cone of influence, so rules/gallery/chc_cone_of_influence.dl advises dropping it.
(set-logic HORN)
(declare-fun inv (Int) Bool)
(declare-fun side (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x 1))) (inv y))))
(assert (forall ((x Int)) (=> (inv x) (side x))))
(assert (forall ((x Int)) (=> (and (inv x) (< x 0)) false)))
(check-sat)
