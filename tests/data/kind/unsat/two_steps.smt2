; Two initial clauses, two steps and two queries over the reals: the counterexample starts in
; the second initial state and takes the second step twice.
(set-logic HORN)
(declare-fun st (Real Real) Bool)
(assert (forall ((p Real) (q Real)) (=> (and (= p 0.0) (= q 0.0)) (st p q))))
(assert (forall ((p Real) (q Real)) (=> (and (= p 10.0) (= q 0.0)) (st p q))))
(assert (forall ((p Real) (q Real) (p1 Real) (q1 Real))
  (=> (and (st p q) (< p 5.0) (= p1 (+ p 1.0)) (= q1 q)) (st p1 q1))))
(assert (forall ((p Real) (q Real) (p1 Real) (q1 Real))
  (=> (and (st p q) (>= p 10.0) (= p1 p) (= q1 (+ q 0.5))) (st p1 q1))))
(assert (forall ((p Real) (q Real)) (=> (and (st p q) (< p 0.0)) false)))
(assert (forall ((p Real) (q Real)) (=> (and (st p q) (>= q 1.0)) false)))
(check-sat)
