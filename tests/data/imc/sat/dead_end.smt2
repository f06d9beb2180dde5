; A clock t ticks up to 5, then resets while x counts up, but only while x < 2: a state with
; x = 2 and t >= 5 has no successor. Invariant: 0 <= x <= 2 (x = 3 is never reached).
; The steps are not total: an unrolling of k steps says nothing of the states without k - 1
; successors, so the bad states must be asked for at every depth up to k, not at k alone.
(set-logic HORN)
(declare-fun inv (Real Real) Bool)
(assert (forall ((x Real) (t Real)) (=> (and (= x 0.0) (= t 0.0)) (inv x t))))
(assert (forall ((x Real) (t Real) (x1 Real) (t1 Real))
  (=> (and (inv x t)
           (or (and (< t 5.0) (= t1 (+ t 1.0)) (= x1 x))
               (and (>= t 5.0) (< x 2.0) (= x1 (+ x 1.0)) (= t1 0.0))))
      (inv x1 t1))))
(assert (forall ((x Real) (t Real)) (=> (and (inv x t) (> x 3.0)) false)))
(check-sat)
