; A counter without a bound: infinitely many states, so the exploration stops at its bound.
(set-logic HORN)
(declare-fun s (Int) Bool)
(assert (forall ((c Int)) (=> (= c 0) (s c))))
(assert (forall ((c Int) (c2 Int)) (=> (and (s c) (= c2 (+ c 1))) (s c2))))
(assert (forall ((c Int)) (=> (and (s c) (< c 0)) false)))
(check-sat)
