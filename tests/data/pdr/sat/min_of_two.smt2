; Two clocks a and b advance by at least 1 each step; m is reset to the smaller of the two.
; The query: m never exceeds both clocks. Inductive invariant: (and (<= m a) (<= m b)), found
; from the step's disjunction (which clock was smaller) by projection.
(set-logic HORN)
(declare-fun clk (Real Real Real) Bool)
(assert (forall ((a Real) (b Real) (m Real))
  (=> (and (>= a 0.0) (>= b 0.0) (or (= m a) (= m b)) (<= m a) (<= m b)) (clk a b m))))
(assert (forall ((a Real) (b Real) (m Real) (a1 Real) (b1 Real) (m1 Real))
  (=> (and (clk a b m) (>= a1 (+ a 1.0)) (>= b1 (+ b 1.0))
           (or (and (<= a1 b1) (= m1 a1)) (and (> a1 b1) (= m1 b1))))
      (clk a1 b1 m1))))
(assert (forall ((a Real) (b Real) (m Real))
  (=> (and (clk a b m) (> m a) (> m b)) false)))
(check-sat)
